package dev.tradeoff.bench;

import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.mechanisms.response.RandomizedResponse;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.DiscreteGaussian;
import dev.tradeoff.mechanisms.sampling.DiscreteLaplace;
import dev.tradeoff.mechanisms.sampling.Exponential;
import dev.tradeoff.mechanisms.sampling.Geometric;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.selection.ExponentialMechanism;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Samples per second of Tradeoff's secure, exact samplers (integer arithmetic) next to naive
 * floating-point sampling on {@link java.util.Random} in the same run. The {@code exact*},
 * {@code secure*} and {@code snapped*} benchmarks draw from the secure source named by {@link
 * Source#source}: {@code drbg-bits} is production's {@link Randomness#secure()} (an AES-256
 * CTR_DRBG keyed and reseeded from a Hash_DRBG, read in 64 KiB requests, consumed bit-exactly),
 * {@code SecureRandom} a plain {@code new SecureRandom()} called per draw (an earlier production
 * source, kept for comparison). The {@code seededExact*} ones run
 * the same exact algorithm on a fast seeded generator, separating the cost of the algorithm from
 * that of the source; the {@code naive*} ones are the textbook samplers Mironov 2012 attacks.
 *
 * <p>Run: {@code java -jar tradeoff-bench/target/benchmarks.jar SamplerBenchmark -p
 * source=drbg-bits -f 1 -wi 10 -i 5 -w 1 -r 1 -prof dev.tradeoff.bench.CpuTimeProfiler}. The
 * secure samplers want the longer warm-up: the keystream is refilled only a few hundred times a
 * second, so the JIT compiles the refill path (one AES/ECB call over the counter blocks) late. On a
 * shared machine compare the ops-per-cpu-second figures.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SamplerBenchmark {

  private static final double EPSILON = 0.1;
  private static final double SIGMA = 10;

  /** The secure source under test, chosen by name. */
  @State(Scope.Thread)
  public static class Source {
    @Param({"drbg-bits", "SecureRandom"})
    public String source;

    RandomGenerator random;

    @Setup
    public void setUp() {
      random = source.equals("SecureRandom") ? new SecureRandom() : Randomness.secure();
    }
  }

  private final RandomGenerator seeded = Randomness.seeded(1);
  private final Random naive = new Random(1);

  private final Rational gamma = Rational.of(1, 3);
  private final Geometric geometric = Geometric.withFailureProbabilityExpMinus(EPSILON);
  private final DiscreteLaplace discreteLaplace = DiscreteLaplace.withScale(1 / EPSILON);
  private final DiscreteGaussian discreteGaussian = DiscreteGaussian.withSigma(SIGMA);
  private final Exponential exponential = new Exponential(EPSILON);
  private final LaplaceMechanism laplace = LaplaceMechanism.of(EPSILON, 1);
  private final GaussianMechanism gaussian = GaussianMechanism.of(1, 1e-5, 1);
  private final RandomizedResponse randomizedResponse = RandomizedResponse.kAry(1, 4);
  private final ExponentialMechanism exponentialMechanism = ExponentialMechanism.of(1, 1);
  private final double[] utilities = {3, 1, 2, 0};

  // --- Tradeoff, SecureRandom -------------------------------------------------------------

  @Benchmark
  public boolean exactBernoulliExp(Source s) {
    return BernoulliExp.sample(s.random, gamma);
  }

  @Benchmark
  public long exactGeometric(Source s) {
    return geometric.sample(s.random);
  }

  @Benchmark
  public long exactDiscreteLaplace(Source s) {
    return discreteLaplace.sample(s.random);
  }

  @Benchmark
  public long exactDiscreteGaussian(Source s) {
    return discreteGaussian.sample(s.random);
  }

  @Benchmark
  public double secureExponential(Source s) {
    return exponential.sample(s.random);
  }

  @Benchmark
  public double snappedLaplaceMechanism(Source s) {
    return laplace.release(42.0, s.random);
  }

  @Benchmark
  public double snappedGaussianMechanism(Source s) {
    return gaussian.release(42.0, s.random);
  }

  @Benchmark
  public int exactRandomizedResponse(Source s) {
    return randomizedResponse.release(2, s.random);
  }

  @Benchmark
  public int exactExponentialMechanism(Source s) {
    return exponentialMechanism.select(utilities, s.random);
  }

  // --- the same exact algorithms on a fast seeded generator ---------------------------------

  @Benchmark
  public long seededExactDiscreteLaplace() {
    return discreteLaplace.sample(seeded);
  }

  @Benchmark
  public long seededExactDiscreteGaussian() {
    return discreteGaussian.sample(seeded);
  }

  @Benchmark
  public double seededSnappedLaplaceMechanism() {
    return laplace.release(42.0, seeded);
  }

  // --- naive floating-point samplers on java.util.Random ------------------------------------

  @Benchmark
  public boolean naiveBernoulliExp() {
    return naive.nextDouble() < Math.exp(-1.0 / 3);
  }

  @Benchmark
  public long naiveGeometric() {
    return (long) Math.floor(Math.log(1 - naive.nextDouble()) / -EPSILON);
  }

  @Benchmark
  public double naiveLaplace() {
    double u = naive.nextDouble() - 0.5;
    return 42.0 - Math.signum(u) * Math.log(1 - 2 * Math.abs(u)) / EPSILON;
  }

  @Benchmark
  public double naiveGaussian() {
    return 42.0 + 3.73 * naive.nextGaussian();
  }

  @Benchmark
  public double naiveExponential() {
    return -Math.log(1 - naive.nextDouble()) / EPSILON;
  }

  @Benchmark
  public int naiveExponentialMechanism() {
    double[] weights = new double[utilities.length];
    double total = 0;
    for (int r = 0; r < utilities.length; r++) {
      weights[r] = Math.exp(utilities[r] / 2);
      total += weights[r];
    }
    double u = naive.nextDouble() * total;
    for (int r = 0; r < utilities.length - 1; r++) {
      u -= weights[r];
      if (u < 0) {
        return r;
      }
    }
    return utilities.length - 1;
  }

  @Benchmark
  public int naiveRandomizedResponse() {
    double keep = Math.E / (Math.E + 3);
    if (naive.nextDouble() < keep) {
      return 2;
    }
    int other = naive.nextInt(3);
    return other >= 2 ? other + 1 : other;
  }
}
