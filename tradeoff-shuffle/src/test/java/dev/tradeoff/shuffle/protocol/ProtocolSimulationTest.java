package dev.tradeoff.shuffle.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Unbiasedness and exact variance of the estimators, and the distribution of the view. */
class ProtocolSimulationTest {

  private static final int TRIALS = 20_000;

  @Test
  void binarySumEstimateIsUnbiasedWithTheStatedVariance() {
    SplittableRandom random = new SplittableRandom(20240601L);
    ShuffleParameters params = new ShuffleParameters(60, 14);
    BinarySumProtocol protocol = new BinarySumProtocol(params);
    int[] bits = new int[60];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = random.nextInt(3) == 0 ? 1 : 0;
    }
    double truth = Arrays.stream(bits).sum();
    double[] z = new double[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
      z[t] = protocol.run(bits, random).value();
    }
    double variance = protocol.variance();
    assertThat(mean(z)).isCloseTo(truth, within(4 * Math.sqrt(variance / TRIALS)));
    // The sample variance has relative standard deviation about sqrt(2/T) = 1%.
    assertThat(sampleVariance(z)).isCloseTo(variance, within(0.05 * variance));
  }

  @Test
  void realSumEstimateIsUnbiasedWithTheExactVarianceBelowTheBound() {
    SplittableRandom random = new SplittableRandom(7L);
    ShuffleParameters params = new ShuffleParameters(40, 8);
    RealSumProtocol protocol = new RealSumProtocol(params, 5);
    double[] x = new double[40];
    for (int i = 0; i < x.length; i++) {
      x[i] = i % 7 == 0 ? 0 : i % 11 == 0 ? 1 : i % 5 == 0 ? 0.4 : random.nextDouble();
    }
    double truth = Arrays.stream(x).sum();
    double[] z = new double[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
      z[t] = protocol.run(x, random).value();
    }
    double variance = protocol.variance(x);
    assertThat(mean(z)).isCloseTo(truth, within(4 * Math.sqrt(variance / TRIALS)));
    assertThat(sampleVariance(z)).isCloseTo(variance, within(0.05 * variance));
    assertThat(protocol.varianceBound()).isGreaterThanOrEqualTo(variance);
  }

  @Test
  void varianceBoundIsAttainedWhenEveryRandomBitIsAFairCoin() {
    ShuffleParameters params = new ShuffleParameters(10, 3);
    RealSumProtocol protocol = new RealSumProtocol(params, 4);
    // x r − μ + 1 = P[b_μ = 1] with π = p + (1 − 2p)P = 1/2 needs P = 1/2: x = (μ − 1/2)/r.
    double[] x = new double[10];
    Arrays.fill(x, 2.5 / 4);
    assertThat(protocol.variance(x)).isCloseTo(protocol.varianceBound(), within(1e-12));
  }

  @Test
  void encoderIsUnaryWithExpectationXr() {
    UnaryEncoder encoder = new UnaryEncoder(8);
    SplittableRandom random = new SplittableRandom(3L);
    for (double x : new double[] {0, 0.01, 0.3, 0.5, 0.8125, 0.999, 1}) {
      double expected = 0;
      for (int j = 1; j <= 8; j++) {
        expected += encoder.oneProbability(x, j);
      }
      assertThat(expected).isCloseTo(x * 8, within(1e-12));
      long total = 0;
      for (int t = 0; t < TRIALS; t++) {
        int[] b = encoder.encode(x, random);
        for (int j = 1; j < b.length; j++) {
          assertThat(b[j]).isLessThanOrEqualTo(b[j - 1]); // ones first, then zeros
        }
        total += Arrays.stream(b).sum();
      }
      assertThat(total / (double) TRIALS).isCloseTo(x * 8, within(0.03));
    }
  }

  @Test
  void shufflerIsAUniformPermutation() {
    SplittableRandom random = new SplittableRandom(11L);
    int[] counts = new int[6];
    int[] items = {0, 1, 2};
    int trials = 60_000;
    for (int t = 0; t < trials; t++) {
      int[] s = Shuffler.shuffle(items, random);
      assertThat(Arrays.stream(s).sorted().toArray()).containsExactly(0, 1, 2);
      counts[s[0] * 2 + (s[1] > s[2] ? 1 : 0)]++;
    }
    double chi2 = 0;
    for (int c : counts) {
      chi2 += Math.pow(c - trials / 6.0, 2) / (trials / 6.0);
    }
    assertThat(chi2).isLessThan(20.5); // 5 degrees of freedom, p ≈ 0.001
  }

  @Test
  void localRandomizerFlipsWithProbabilityLambdaOverTwoN() {
    ShuffleParameters params = new ShuffleParameters(20, 6);
    LocalRandomizer r = new LocalRandomizer(params);
    SplittableRandom random = new SplittableRandom(5L);
    int trials = 200_000;
    int zeroToOne = 0;
    int oneToOne = 0;
    for (int t = 0; t < trials; t++) {
      zeroToOne += r.randomize(0, random);
      oneToOne += r.randomize(1, random);
    }
    double p = params.flipProbability();
    double sd = Math.sqrt(p * (1 - p) / trials);
    assertThat(zeroToOne / (double) trials).isCloseTo(p, within(5 * sd));
    assertThat(oneToOne / (double) trials).isCloseTo(1 - p, within(5 * sd));
  }

  /**
   * The view of the analyzer is the count of 1s, distributed as Bin(k, 1 − p) + Bin(n − k, p) for
   * k ones in the input: the reduction the exact analysis rests on.
   */
  @Test
  void countOfOnesFollowsTheDistributionUsedByTheExactAnalysis() {
    int n = 20;
    int k = 7;
    ShuffleParameters params = new ShuffleParameters(n, 6);
    BinarySumProtocol protocol = new BinarySumProtocol(params);
    int[] bits = new int[n];
    Arrays.fill(bits, 0, k, 1);
    SplittableRandom random = new SplittableRandom(99L);
    int trials = 100_000;
    int[] hist = new int[n + 1];
    for (int t = 0; t < trials; t++) {
      hist[Arrays.stream(protocol.shuffledReports(bits, random)).sum()]++;
    }
    double p = params.flipProbability();
    double tv = 0;
    for (int y = 0; y <= n; y++) {
      double mass = 0;
      for (int a = 0; a <= Math.min(y, k); a++) {
        mass += Math.exp(LogMath.logBinomialPmf(k, a, 1 - p)
            + LogMath.logBinomialPmf(n - k, y - a, p));
      }
      tv += Math.abs(hist[y] / (double) trials - mass);
    }
    assertThat(tv / 2).isLessThan(0.01);
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).average().orElseThrow();
  }

  private static double sampleVariance(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return s / (v.length - 1);
  }
}
