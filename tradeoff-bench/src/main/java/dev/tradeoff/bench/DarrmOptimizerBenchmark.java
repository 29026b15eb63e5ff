package dev.tradeoff.bench;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The DaRRM optimiser and exact verifier (issue 4 performance targets), single shot, ε = 0.1,
 * δ = 1 − (1 − Δ)^m, surrogate objective p̄ = ¾:
 *
 * <ul>
 *   <li>{@code optimizeK41}: Δ = 1e-5, K = 41, m = 1..20 (target ≤ 5 s each);
 *   <li>{@code optimizePureK301}: Δ = 0, K = 301 (target ≤ 60 s);
 *   <li>{@code certifyK101}: Δ = 1e-5, K = 101, one exact certificate (C(107, 6) ≈ 1.9e9 random
 *       corner multisets) of γ_Sub.
 * </ul>
 *
 * Run: {@code java -jar tradeoff-bench/target/benchmarks.jar DarrmOptimizerBenchmark}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(1)
public class DarrmOptimizerBenchmark {

  /** K = 41, Δ = 1e-5. */
  @State(Scope.Benchmark)
  public static class K41 {
    @Param({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20"})
    public int m;
  }

  /** K = 301, Δ = 0. */
  @State(Scope.Benchmark)
  public static class K301 {
    @Param({"10", "50", "100"})
    public int m;
  }

  @Benchmark
  public GammaOptimizer.Result optimizeK41(K41 s) {
    return new GammaOptimizer(DarrmSetting.withDefaultDelta(41, 0.1, 1e-5, s.m))
        .optimize(new Objective.Surrogate(0.75));
  }

  @Benchmark
  public GammaOptimizer.Result optimizePureK301(K301 s) {
    return new GammaOptimizer(DarrmSetting.withDefaultDelta(301, 0.1, 0, s.m))
        .optimize(new Objective.Surrogate(0.75));
  }

  @Benchmark
  public PrivacyCertificate certifyK101() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(101, 0.1, 1e-5, 10);
    return new PrivacyVerifier(s).certify(NoiseFunction.subsampling(101, 10));
  }
}
