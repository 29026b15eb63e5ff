package dev.tradeoff.bench;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * RDP composition of 10⁴ heterogeneous events — Gaussians with distinct σ, Poisson-subsampled
 * Gaussians with distinct (q, σ) and Laplace mechanisms with distinct scales, a third each — on the
 * default order grid, then ε at δ = 1e−5. Every event is distinct, so nothing is shared between
 * events; the subsampled Gaussians (integer and fractional orders) dominate the cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class RdpCompositionBenchmark {

  private static final int EVENTS = 10_000;

  private final RdpAccountant accountant = new RdpAccountant();
  private DpEvent composition;

  @Setup
  public void buildEvents() {
    SplittableRandom rng = new SplittableRandom(2024);
    List<DpEvent> events = new ArrayList<>(EVENTS);
    for (int i = 0; i < EVENTS; i++) {
      switch (i % 3) {
        case 0 -> events.add(new GaussianEvent(50 + 100 * rng.nextDouble()));
        case 1 ->
            events.add(
                new PoissonSampledEvent(
                    0.001 + 0.01 * rng.nextDouble(), new GaussianEvent(0.8 + rng.nextDouble())));
        default -> events.add(new LaplaceEvent(500 + 1000 * rng.nextDouble()));
      }
    }
    composition = new ComposedEvent(events);
  }

  @Benchmark
  public double epsilonOfTenThousandHeterogeneousEvents() {
    return accountant.account(composition, Neighbouring.ADD_OR_REMOVE_ONE).epsilon(1e-5);
  }
}
