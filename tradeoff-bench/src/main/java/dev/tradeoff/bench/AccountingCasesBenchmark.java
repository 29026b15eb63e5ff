package dev.tradeoff.bench;

import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The PLD accountant's answers at default settings on the cases that {@code
 * src/main/python/dp_accounting_cases.py} times with Google's dp_accounting (its PLD accountant
 * at the same discretization interval 1e-4), at δ = 1e-5 and δ = 1e-12: the ε bracket of 100
 * Gaussians (σ = 1) and of DP-SGD (q = 0.004, σ = 1.1) over 10^4 and 10^5 steps, and the DP-SGD
 * noise multiplier for a target ε of 2 over 10^4 and 10^5 steps (q = 0.004), within 0.5% of the
 * smallest and certified by the bracket's lower end ({@link GaussianCalibrator#poissonSampled}).
 * Every call builds its profile afresh (nothing is cached across calls). Run: {@code ./mvnw -B -q
 * -pl tradeoff-bench -am package -DskipTests && java -jar tradeoff-bench/target/benchmarks.jar
 * AccountingCases -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class AccountingCasesBenchmark {

  private static final double Q = 0.004;

  @Param({"1e-5", "1e-12"})
  public double delta;

  private final PldAccountant accountant = new PldAccountant();
  private final GaussianCalibrator calibrator = new GaussianCalibrator(accountant);

  private static SelfComposedEvent dpSgd(double sigma, int steps) {
    return new SelfComposedEvent(new PoissonSampledEvent(Q, new GaussianEvent(sigma)), steps);
  }

  /** ε bracket of 100 Gaussians with σ = 1. */
  @Benchmark
  public EpsilonBounds hundredGaussians() {
    return accountant.epsilonBounds(
        new SelfComposedEvent(new GaussianEvent(1), 100), Neighbouring.ADD_OR_REMOVE_ONE, delta);
  }

  /** ε bracket of DP-SGD, 10^4 steps. */
  @Benchmark
  public EpsilonBounds dpSgdTenThousandSteps() {
    return accountant.epsilonBounds(dpSgd(1.1, 10_000), Neighbouring.ADD_OR_REMOVE_ONE, delta);
  }

  /** ε bracket of DP-SGD, 10^5 steps. */
  @Benchmark
  public EpsilonBounds dpSgdHundredThousandSteps() {
    return accountant.epsilonBounds(dpSgd(1.1, 100_000), Neighbouring.ADD_OR_REMOVE_ONE, delta);
  }

  /** σ for ε = 2 over 10^4 steps. */
  @Benchmark
  public GaussianCalibrator.Calibration calibrateTenThousandSteps() {
    return calibrator.poissonSampled(Q, 10_000, 2, delta);
  }

  /** σ for ε = 2 over 10^5 steps. */
  @Benchmark
  public GaussianCalibrator.Calibration calibrateHundredThousandSteps() {
    return calibrator.poissonSampled(Q, 100_000, 2, delta);
  }
}
