package dev.tradeoff.bench;

import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.amplification.bernoulli.SearchBudget;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ten slowest of the 2,310 distinct points (α, c, dk, ε) that {@code tradeoff reproduce
 * bernoulli} computes (Figures 1–3 of [BernAmp21]; before the certificate's search shared its
 * corners and interval values, 3.7 to 16.5 CPU-s each on a loaded machine), each certified as the
 * reproduction certifies it: Post_{A,α,k}(ε) to a gap of 1e-6 with at most 600 000 boxes of the
 * Lagrangian certificate. One call is one point; single-shot, because a point is a whole search.
 *
 * <p>Run: {@code java -jar tradeoff-bench/target/benchmarks.jar BernoulliSlowestPoints -prof
 * dev.tradeoff.bench.CpuTimeProfiler}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class BernoulliSlowestPointsBenchmark {

  /** α:c:dk:ε. */
  @Param({
    "50:0.1:15:0.1",
    "5:0.1:15:0.1",
    "5:0.1:15:0.3",
    "5:0.01:5:0.1",
    "50:0.1:12:0.1",
    "50:0.01:5:0.1",
    "50:0.01:2:0.05",
    "5:0.01:5:0.3",
    "5:0.1:15:0.6",
    "5:0.01:2:0.05"
  })
  public String point;

  private BernoulliSampling setting;
  private double epsilon;

  @Setup
  public void setUp() {
    String[] parts = point.split(":");
    setting =
        new BernoulliSampling(
            Double.parseDouble(parts[0]), Double.parseDouble(parts[1]),
            Integer.parseInt(parts[2]), 1);
    epsilon = Double.parseDouble(parts[3]);
  }

  /** The point as {@code reproduce bernoulli} computes it (gap 1e-6, 600 000 boxes). */
  @Benchmark
  public Amplification certifiedPoint() {
    return setting.amplify(epsilon, new SearchBudget(1e-6, 600_000));
  }
}
