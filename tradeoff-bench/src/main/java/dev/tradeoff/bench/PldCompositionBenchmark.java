package dev.tradeoff.bench;

import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * PLD accounting at the default settings (interval 1e-4, tail mass 1e-15, point budget 2^19, both
 * bounds): 100 Gaussian mechanisms with σ = 1, DP-SGD (σ = 1.1, q = 0.004) for 10^4 and for 10^5
 * steps, each answered as the bracket [epsilonLower, epsilon] at δ = 1e-5 (Gaussians) or 1e-6
 * (DP-SGD). Goal: ≤ 0.5 s warm each. The peak heap of the trial (sum of the heap pools' peaks, an
 * upper bound) is printed at its end. Run:
 * {@code ./mvnw -B -q -pl tradeoff-bench -am package -DskipTests && java -jar
 * tradeoff-bench/target/benchmarks.jar Pld -f 1 -wi 3 -i 5}.
 *
 * <p>What the time goes to: the upper and the lower bound are composed concurrently (one on the
 * common fork-join pool), each by one real FFT of the Chernoff window (2^19 points for the
 * Gaussians at Δ ≈ 3.4e-4, 2^17 and 2^18 at Δ = 1e-4 for DP-SGD, two neighbouring directions
 * each); for DP-SGD the query then runs one exponentially tilted transform per bound for the
 * dominant direction, whose round-off bound the δ of 1e-6 needs. Issue 12 measured on 2 cores
 * shared with other builds: before (load average 10) 1714 / 1072 / 10650 ms for the Gaussians /
 * 10^4 / 10^5 steps, peak heap 459 / 675 / 4922 MiB; after (load 7) 332 / 490 / 712 ms, peak heap
 * 188 / 265 / 559 MiB; on the idle machine (load average 0.3, {@code -f 1 -wi 3 -i 5}) 109 / 151 /
 * 207 ms, peak heap 227 / 445 / 653 MiB (the before figures idle: 753 / 426 / 3095 ms);
 * REPRODUCTION.md has the details.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PldCompositionBenchmark {

  private final PldAccountant accountant = new PldAccountant();
  private final SelfComposedEvent hundredGaussians = new SelfComposedEvent(new GaussianEvent(1), 100);
  private final SelfComposedEvent dpSgd10k = dpSgd(10_000);
  private final SelfComposedEvent dpSgd100k = dpSgd(100_000);

  private static SelfComposedEvent dpSgd(int steps) {
    return new SelfComposedEvent(new PoissonSampledEvent(0.004, new GaussianEvent(1.1)), steps);
  }

  /** Starts each trial's peak-memory count from the current usage. */
  @Setup(Level.Trial)
  public void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  /** Prints the trial's peak heap (MiB) to stderr. */
  @TearDown(Level.Trial)
  public void printPeakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.err.printf("peak heap %.0f MiB%n", peak / 1048576.0);
  }

  /** Discretize, compose and bracket ε(1e-5) of 100 Gaussians. */
  @Benchmark
  public EpsilonBounds hundredGaussians() {
    return accountant.epsilonBounds(hundredGaussians, Neighbouring.ADD_OR_REMOVE_ONE, 1e-5);
  }

  /** DP-SGD, 10^4 steps: bracket ε(1e-6). */
  @Benchmark
  public EpsilonBounds dpSgdTenThousandSteps() {
    return accountant.epsilonBounds(dpSgd10k, Neighbouring.ADD_OR_REMOVE_ONE, 1e-6);
  }

  /** DP-SGD, 10^5 steps: bracket ε(1e-6). */
  @Benchmark
  public EpsilonBounds dpSgdHundredThousandSteps() {
    return accountant.epsilonBounds(dpSgd100k, Neighbouring.ADD_OR_REMOVE_ONE, 1e-6);
  }
}
