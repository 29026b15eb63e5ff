package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * References: the [WBK19, Theorem 9] sum evaluated term by term with mpmath at 40 digits (exact
 * binomials, inner curves in closed form at 40 digits), independent of the log-space evaluation
 * here. Soundness: the exact Rényi divergences of a real subsampled mechanism (a bit count with
 * discrete Laplace noise on a without-replacement subsample), which every valid bound dominates.
 */
class SampledWithoutReplacementRdpTest {

  private static IntToDoubleFunction gaussian(double sigma) {
    return j -> MechanismRdp.gaussian(sigma, j);
  }

  private static IntToDoubleFunction laplace(double b) {
    return j -> MechanismRdp.laplace(b, j);
  }

  private static IntToDoubleFunction randomizedResponse(double epsilon) {
    return j -> MechanismRdp.randomizedResponse(epsilon, 2, j);
  }

  @Test
  void theoremNineMatchesHighPrecisionEvaluationAndRoundsUp() {
    // {gamma, sigma, alpha, mpmath value}
    double[][] gaussianCases = {
      {0.01, 1, 2, 0.0005435086381094324859842601},
      {0.01, 1, 5, 0.001466446290736101987279606},
      {0.01, 1, 12, 1.041042950689853050824573},
      {0.1, 2, 3, 0.01880059064989469609055356},
      {0.1, 2, 16, 0.1489130270190133482446466},
      {0.001, 0.5, 8, 8.204443564890624265807621},
      {0.05, 4, 40, 0.05123613835401868347681817},
    };
    for (double[] c : gaussianCases) {
      double value =
          SampledWithoutReplacementRdp.upperBound(
              c[0], gaussian(c[1]), Double.POSITIVE_INFINITY, (int) c[2]);
      assertThat(value)
          .as("gaussian gamma=%s sigma=%s alpha=%s", c[0], c[1], c[2])
          .isGreaterThanOrEqualTo(c[3])
          .isLessThanOrEqualTo(c[3] * (1 + 1e-12));
    }
    // {gamma, b, alpha, value}: Laplace, eps(inf) = 1/b
    double[][] laplaceCases = {
      {0.01, 1, 2, 0.0003428610751108725625436125},
      {0.01, 1, 7, 0.001248846055989174924684575},
      {0.1, 0.5, 10, 0.4075113121397579252949106},
      {0.2, 2, 30, 0.163737905155489111179909},
    };
    for (double[] c : laplaceCases) {
      double value =
          SampledWithoutReplacementRdp.upperBound(c[0], laplace(c[1]), 1 / c[1], (int) c[2]);
      assertThat(value)
          .as("laplace gamma=%s b=%s alpha=%s", c[0], c[1], c[2])
          .isGreaterThanOrEqualTo(c[3])
          .isLessThanOrEqualTo(c[3] * (1 + 1e-12));
    }
    // {gamma, epsilon, alpha, value}: binary randomized response, eps(inf) = epsilon
    double[][] rrCases = {
      {0.01, 1, 3, 0.0006308884233419307495221973},
      {0.1, 0.3, 9, 0.006452858399374691244893734},
      {0.05, 3, 25, 0.6261101000841083835865004},
    };
    for (double[] c : rrCases) {
      double value =
          SampledWithoutReplacementRdp.upperBound(
              c[0], randomizedResponse(c[1]), c[1], (int) c[2]);
      assertThat(value)
          .as("rr gamma=%s eps=%s alpha=%s", c[0], c[1], c[2])
          .isGreaterThanOrEqualTo(c[3])
          .isLessThanOrEqualTo(c[3] * (1 + 1e-12));
    }
  }

  @Test
  void fullSamplingRecoversTheInnerMechanismAndTheBoundIsNeverBelowIt() {
    for (int alpha = 2; alpha <= 200; alpha += 3) {
      double inner = MechanismRdp.gaussian(1.3, alpha);
      // the raw theorem at gamma = 1 must not claim less than the exact divergence of the
      // mechanism it then describes
      assertThat(
              SampledWithoutReplacementRdp.upperBound(
                  1, gaussian(1.3), Double.POSITIVE_INFINITY, alpha))
          .isGreaterThanOrEqualTo(inner);
      assertThat(
              SampledWithoutReplacementRdp.epsilon(
                  1, gaussian(1.3), Double.POSITIVE_INFINITY, alpha))
          .isEqualTo(inner);
      double rr = MechanismRdp.randomizedResponse(0.7, 2, alpha);
      assertThat(SampledWithoutReplacementRdp.upperBound(1, randomizedResponse(0.7), 0.7, alpha))
          .isGreaterThanOrEqualTo(rr);
      assertThat(SampledWithoutReplacementRdp.epsilon(1, randomizedResponse(0.7), 0.7, alpha))
          .isEqualTo(rr);
    }
  }

  @Test
  void dominatesExactDivergencesOfASubsampledDiscreteLaplaceCount() {
    SplittableRandom rng = new SplittableRandom(20190417);
    for (int trial = 0; trial < 150; trial++) {
      int n = rng.nextInt(2, 25);
      int m = rng.nextInt(1, n + 1);
      int ones = rng.nextInt(0, n); // X has `ones` ones, X' has one more (a 0 replaced by a 1)
      double t = 0.3 + 4 * rng.nextDouble();
      int alpha = rng.nextInt(2, 21);
      double exact = exactSubsampledCountRdp(n, m, ones, t, alpha);
      double gamma = WithoutReplacementAmplification.samplingRatio(n, m);
      double bound =
          SampledWithoutReplacementRdp.epsilon(
              gamma, j -> MechanismRdp.discreteLaplace(t, j), 1 / t, alpha);
      assertThat(bound)
          .as("n=%d m=%d ones=%d t=%s alpha=%d", n, m, ones, t, alpha)
          .isGreaterThanOrEqualTo(exact * (1 - 1e-12));
    }
  }

  @Test
  void monotoneInTheSamplingRatioAndNeverWorseThanTheInnerMechanism() {
    SplittableRandom rng = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      int kind = rng.nextInt(3);
      double p = 0.2 + 5 * rng.nextDouble();
      IntToDoubleFunction inner =
          kind == 0 ? gaussian(p) : kind == 1 ? laplace(p) : randomizedResponse(1 / p);
      double pure = kind == 0 ? Double.POSITIVE_INFINITY : 1 / p;
      double alpha = 1 + 60 * rng.nextDouble();
      double g1 = rng.nextDouble();
      double g2 = g1 + (1 - g1) * rng.nextDouble();
      double smaller = SampledWithoutReplacementRdp.epsilon(g1, inner, pure, alpha);
      double larger = SampledWithoutReplacementRdp.epsilon(g2, inner, pure, alpha);
      assertThat(smaller).isLessThanOrEqualTo(larger);
      int ceiling = (int) Math.ceil(alpha);
      assertThat(larger).isLessThanOrEqualTo(inner.applyAsDouble(ceiling));
      assertThat(larger)
          .isLessThanOrEqualTo(WithoutReplacementAmplification.amplifiedEpsilon(pure, g2));
    }
  }

  @Test
  void nonIntegerOrdersUseTheNextInteger() {
    for (double alpha : new double[] {1.01, 1.5, 2.5, 7.25, 63.9}) {
      int ceiling = (int) Math.ceil(alpha);
      assertThat(
              SampledWithoutReplacementRdp.epsilon(
                  0.02, gaussian(1), Double.POSITIVE_INFINITY, alpha))
          .isEqualTo(
              SampledWithoutReplacementRdp.epsilon(
                  0.02, gaussian(1), Double.POSITIVE_INFINITY, ceiling));
    }
  }

  @Test
  void pureDpInnerIsCappedByTheAmplifiedPureEpsilon() {
    // With eps(inf) = 2 and gamma = 0.5 every order is bounded by log(1 + 0.5(e^2 - 1)).
    double cap = WithoutReplacementAmplification.amplifiedEpsilon(2, 0.5);
    for (int alpha = 2; alpha <= 400; alpha *= 2) {
      assertThat(SampledWithoutReplacementRdp.epsilon(0.5, randomizedResponse(2), 2, alpha))
          .isLessThanOrEqualTo(cap);
    }
    // a zero-epsilon inner mechanism stays free
    assertThat(SampledWithoutReplacementRdp.epsilon(0.5, j -> 0, 0, 10)).isZero();
  }

  @Test
  void largeOrdersStayFiniteInLogSpace() {
    double e = SampledWithoutReplacementRdp.epsilon(1e-3, gaussian(0.8), Double.POSITIVE_INFINITY, 4096);
    assertThat(e).isFinite().isPositive().isLessThanOrEqualTo(MechanismRdp.gaussian(0.8, 4096));
    assertThat(
            SampledWithoutReplacementRdp.epsilon(
                1e-3, j -> Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 5))
        .isInfinite();
  }

  @Test
  void rejectsBadInput() {
    IntToDoubleFunction g = gaussian(1);
    double inf = Double.POSITIVE_INFINITY;
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0, g, inf, 2))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(1.5, g, inf, 2))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(Double.NaN, g, inf, 2))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, null, inf, 2))
        .hasMessageContaining("innerRdp");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, g, -1, 2))
        .hasMessageContaining("innerPureEpsilon must be >= 0");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, g, Double.NaN, 2))
        .hasMessageContaining("innerPureEpsilon");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, g, inf, 1))
        .hasMessageContaining("alpha must be > 1");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, g, inf, Double.NaN))
        .hasMessageContaining("alpha");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, g, inf, 1e12))
        .hasMessageContaining("alpha must be <= 65536");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, j -> Double.NaN, inf, 3))
        .hasMessageContaining("innerRdp(2) must be >= 0");
    assertThatThrownBy(() -> SampledWithoutReplacementRdp.epsilon(0.1, j -> -1, inf, 3))
        .hasMessageContaining("innerRdp");
  }

  /**
   * max of D_α(P‖P′) and D_α(P′‖P) for P (P′) the law of c + Z, c the number of ones in an m-subset
   * drawn without replacement from n bits with {@code ones} (ones + 1) ones, Z discrete Laplace with
   * Pr[z] ∝ e^{−|z|/t}. Outputs are summed over [−60t − 40, m + 60t + 40] (the rest is below
   * e^{−60} relative). Replacing a 0 by a 1 is a replace-one neighbour of sensitivity 1.
   */
  static double exactSubsampledCountRdp(int n, int m, int ones, double t, int alpha) {
    double[] p = subsampledCountLogLaw(n, m, ones, t);
    double[] q = subsampledCountLogLaw(n, m, ones + 1, t);
    double[] forward = new double[p.length];
    double[] backward = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      forward[i] = alpha * p[i] + (1 - alpha) * q[i];
      backward[i] = alpha * q[i] + (1 - alpha) * p[i];
    }
    return Math.max(LogMath.logSumExp(forward), LogMath.logSumExp(backward)) / (alpha - 1);
  }

  private static int margin(double t) {
    return (int) Math.ceil(60 * t) + 40;
  }

  private static double[] subsampledCountLogLaw(int n, int m, int ones, double t) {
    int margin = margin(t);
    double logNorm = Math.log(Math.tanh(1 / (2 * t))); // Σ_z e^{−|z|/t} = coth(1/(2t))
    double logAll = LogMath.logBinomial(n, m);
    double[] law = new double[m + 2 * margin + 1];
    for (int y = -margin; y <= m + margin; y++) {
      double acc = Double.NEGATIVE_INFINITY;
      for (int c = Math.max(0, m - (n - ones)); c <= Math.min(ones, m); c++) {
        double logHyper =
            LogMath.logBinomial(ones, c) + LogMath.logBinomial(n - ones, m - c) - logAll;
        acc = LogMath.logAddExp(acc, logHyper + logNorm - Math.abs(y - c) / t);
      }
      law[y + margin] = acc;
    }
    return law;
  }
}
