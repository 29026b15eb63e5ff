package dev.tradeoff.bench;

import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * PLD composition of 100 Gaussian mechanisms with σ = 1 at discretization interval 1e-4 (target
 * ≤ 1 s per composition), answered at δ = 1e-5. Run:
 * {@code java -jar tradeoff-bench/target/benchmarks.jar Pld -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PldCompositionBenchmark {

  private final PldAccountant accountant = new PldAccountant(1e-4, 1e-15);
  private final SelfComposedEvent hundredGaussians = new SelfComposedEvent(new GaussianEvent(1), 100);

  /** Discretize, compose and answer ε(1e-5). */
  @Benchmark
  public double hundredGaussiansEpsilon() {
    return accountant
        .account(hundredGaussians, Neighbouring.ADD_OR_REMOVE_ONE)
        .epsilon(1e-5);
  }
}
