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
 * Time to a certified Post_{A,α,k}(ε) [BernAmp21, Theorems 1 and 3] as d and k grow, at
 * α = 50, c = 0.1, ε = 1, gap 1e-9 and the default budget (Lagrangian certificate, then the corner
 * search as fallback); where neither closes, the time is that of the whole budget. Also the O(dk)
 * lower bound of Theorem 4 for comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 2, time = 1)
@Fork(1)
public class BernoulliAmplificationBenchmark {

  @Param({"1:1", "1:2", "1:4", "1:8", "1:16", "2:1", "3:1", "2:2", "5:1"})
  public String dk;

  private BernoulliSampling setting;

  @Setup
  public void setUp() {
    String[] parts = dk.split(":");
    setting = new BernoulliSampling(50, 0.1, Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
  }

  @Benchmark
  public Amplification certifiedPost() {
    return setting.amplify(1.0, SearchBudget.DEFAULT);
  }

  @Benchmark
  public double theorem4LowerBound() {
    return setting.lowerBound(1.0);
  }
}
