package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.fdp.PiecewiseLinearTradeoff;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class ExactShuffleAnalysisTest {

  /**
   * Reference δ(ε) = max over k and both orders of the hockey-stick divergence between
   * D_k = Bin(k, 1 − p) + Bin(n − k, p) and D_{k+1}, computed independently with scipy (full pmfs,
   * no truncation).
   */
  @Test
  void privacyProfileMatchesBruteForceOverAllNeighbouringPairs() {
    PowerCurve c100 = ExactShuffleAnalysis.worstCase(new ShuffleParameters(100, 58), 1);
    assertThat(c100.delta(0.1)).isCloseTo(0.0077231767207399, Percentage.withPercentage(1e-8));
    assertThat(c100.delta(0.5)).isCloseTo(3.5133717624297807e-08, Percentage.withPercentage(1e-6));
    PowerCurve c1000 = ExactShuffleAnalysis.worstCase(new ShuffleParameters(1000, 58), 1);
    assertThat(c1000.delta(0.1)).isCloseTo(0.0356321438381985, Percentage.withPercentage(1e-8));
    assertThat(c1000.delta(1.0)).isCloseTo(1.8244259922249261e-06,
        Percentage.withPercentage(1e-6));
    assertThat(c1000.delta(2.0)).isCloseTo(5.148679201063806e-11, Percentage.withPercentage(1e-5));
    // The worst pair here is k = 3, not an extreme one: all k must be examined.
    PowerCurve c10 = ExactShuffleAnalysis.worstCase(new ShuffleParameters(100, 10), 1);
    assertThat(c10.delta(0.5)).isCloseTo(0.04948098748175998, Percentage.withPercentage(1e-8));
    assertThat(c10.delta(2.0)).isCloseTo(0.003618049086417904, Percentage.withPercentage(1e-8));
  }

  @Test
  void curveLiesBelowEveryPairsOptimalTestsAndIsAValidSymmetricTradeoff() {
    ShuffleParameters params = new ShuffleParameters(40, 9);
    PowerCurve curve = ExactShuffleAnalysis.worstCase(params, 1);
    PiecewiseLinearTradeoff f = curve.tradeoff();
    assertThat(f.isSymmetric(1e-12)).isTrue();
    double p = params.flipProbability();
    for (int k = 0; k < 40; k++) {
      double[] pk = pmf(40, k, p);
      double[] pk1 = pmf(40, k + 1, p);
      double above0 = 0;
      double above1 = 0;
      for (int t = 40; t >= 0; t--) {
        above0 += pk[t];
        above1 += pk1[t];
        // The test "reject when Y >= t" has α = P_k(Y ≥ t), β = P_{k+1}(Y < t).
        assertThat(f.beta(Math.min(1, above0))).isLessThanOrEqualTo(1 - above1 + 1e-12);
      }
    }
  }

  @Test
  void curveIsCappedByTheLocalGuaranteeAndReachesIt() {
    ShuffleParameters params = new ShuffleParameters(100, 58);
    PowerCurve curve = ExactShuffleAnalysis.worstCase(params, 1);
    double l = Math.exp(params.localEpsilon());
    for (double alpha : new double[] {1e-300, 1e-40, 1e-20, 1e-5, 0.3}) {
      assertThat(curve.power(alpha)).isLessThanOrEqualTo(l * alpha * (1 + 1e-12));
    }
    // δ at ε₀ is 0 (no pair is more than ε₀-distinguishable) up to the relative 1e-13 the
    // profile allows for the rounding of every vertex (PowerCurve.VERTEX_ROUNDING).
    assertThat(curve.delta(params.localEpsilon())).isLessThanOrEqualTo(1e-27);
    assertThat(curve.epsilon(0)).isLessThanOrEqualTo(params.localEpsilon() * (1 + 1e-12));
  }

  @Test
  void gaussianMuIsTightAgainstTheCurve() {
    PowerCurve curve = ExactShuffleAnalysis.worstCase(new ShuffleParameters(100, 58), 1);
    double mu = curve.gaussianMu();
    assertThat(mu).isBetween(0.05, 0.5);
    // G_μ ≤ f at every vertex of the accurate half: 1 − G_μ(α) = Φ(μ − Φ⁻¹(1 − α)) ≥ γ.
    double[] alphas = curve.alphas();
    double[] powers = curve.powers();
    for (int i = 0; i < alphas.length && alphas[i] <= 1 - powers[i]; i++) {
      if (alphas[i] > 0) {
        double g = StandardNormal.survival(StandardNormal.inverseSurvival(alphas[i]) - mu);
        assertThat(g).isGreaterThanOrEqualTo(powers[i] * (1 - 1e-9));
      }
    }
  }

  @Test
  void realSumAnalysisCoversEveryShiftAndIsWeakerThanOneBit() {
    ShuffleParameters params = new ShuffleParameters(30, 12);
    PowerCurve one = ExactShuffleAnalysis.worstCase(params, 1);
    PowerCurve three = ExactShuffleAnalysis.worstCase(params, 3);
    for (double eps : new double[] {0.05, 0.3, 1.0}) {
      assertThat(three.delta(eps)).isGreaterThanOrEqualTo(one.delta(eps));
    }
    // Brute force over all 3-bit shifts: j ones vs j + d ones among 90 messages.
    double p = params.flipProbability();
    for (double eps : new double[] {0.1, 0.5}) {
      double worst = 0;
      for (int d = 1; d <= 3; d++) {
        for (int j = 0; j + d <= 90; j++) {
          double[] a = pmf(90, j, p);
          double[] b = pmf(90, j + d, p);
          worst = Math.max(worst, Math.max(hockey(a, b, eps), hockey(b, a, eps)));
        }
      }
      assertThat(three.delta(eps)).isCloseTo(worst, Percentage.withPercentage(1e-7));
    }
  }

  @Test
  void millionUsersStayFiniteAndAgreeWithTheGenericBound() {
    ShuffleParameters params = new ShuffleParameters(1_000_000, 4);
    PowerCurve curve = ExactShuffleAnalysis.worstCase(params, 1);
    for (double a : curve.alphas()) {
      assertThat(a).isBetween(0.0, 1.0);
    }
    for (double g : curve.powers()) {
      assertThat(g).isBetween(0.0, 1.0);
    }
    FeldmanMcMillanTalwar generic = new FeldmanMcMillanTalwar(1_000_000, params.localEpsilon());
    double previous = 1;
    for (double eps : new double[] {0.1, 1, 3, 8, 12}) {
      double delta = curve.delta(eps);
      assertThat(delta).isLessThanOrEqualTo(previous).isLessThanOrEqualTo(generic.delta(eps));
      previous = delta;
    }
    // About e^{-λ/2} of the time nobody else reports a fake 1: the zero count then reveals a
    // 0 to a 1 with likelihood ratio (1 - p)/p, so δ(ε) stays near (1 - e^{ε - ε₀})·P[...].
    assertThat(curve.delta(1)).isGreaterThan(0.05);
    assertThat(curve.epsilon(1e-6)).isLessThanOrEqualTo(params.localEpsilon() * (1 + 1e-12));
    assertThat(curve.gaussianMu()).isFinite();
    assertThat(ExactShuffleAnalysis.estimatedOperations(new ShuffleParameters(1_000_000, 58), 1))
        .isLessThan(ExactShuffleAnalysis.MAX_OPERATIONS);
  }

  @Test
  void refusesAnalysesBeyondTheOperationBudget() {
    assertThatThrownBy(() -> ExactShuffleAnalysis.worstCase(
        new ShuffleParameters(1_000_000, 400_000), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operations");
  }

  private static double hockey(double[] p, double[] q, double eps) {
    double s = 0;
    for (int i = 0; i < p.length; i++) {
      s += Math.max(0, p[i] - Math.exp(eps) * q[i]);
    }
    return s;
  }

  /** D_k over m messages by direct convolution of full pmfs. */
  private static double[] pmf(int m, int k, double p) {
    double[] out = new double[m + 1];
    for (int a = 0; a <= k; a++) {
      double pa = Math.exp(LogMath.logBinomialPmf(k, a, 1 - p));
      for (int b = 0; b <= m - k; b++) {
        out[a + b] += pa * Math.exp(LogMath.logBinomialPmf(m - k, b, p));
      }
    }
    return out;
  }
}
