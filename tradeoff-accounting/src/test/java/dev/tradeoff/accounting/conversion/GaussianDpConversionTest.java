package dev.tradeoff.accounting.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Reference values were computed once with mpmath at 60 significant digits (δ(ε) by the formula
 * of [ShuffleGDP21, Cor. 2.5]; ε(δ) and μ by bisection on log δ), not by this code.
 */
class GaussianDpConversionTest {

  @Test
  void muTenAtDeltaOneInHundredThousandGivesTheIssueReferenceEpsilon() {
    double eps = GaussianDpConversion.epsilon(10, 1e-5);
    // mpmath: 91.817289624663744684931669782354...
    assertThat(eps).isCloseTo(91.81728962466374, within(91.8172896 * 1e-12));
    assertThat(Math.abs(eps - 91.81728962) / 91.81728962).isLessThan(1e-9);
  }

  @Test
  void epsilonIsRoundedUpSoThatTheProfileMeetsDelta() {
    double eps = GaussianDpConversion.epsilon(10, 1e-5);
    assertThat(GaussianDpConversion.delta(10, eps)).isLessThanOrEqualTo(1e-5);
    assertThat(GaussianDpConversion.delta(10, Math.nextDown(eps))).isGreaterThan(1e-5);
  }

  @Test
  void deltaMatchesHighPrecisionReferencesIncludingDeepTails() {
    double[][] cases = {
      {1, 1, 0.1269367375066439458},
      {1, 20, 2.6647067053654976526e-86},
      {0.5, 10, 9.8551206108501658811e-89},
      {0.1, 3, 7.304806101754675939e-200},
      {3, 0, 0.86638559746228386799},
      {2, 30, 9.6621066829751802404e-46},
      {10, 50, 0.46049330589861399706},
      {0.01, 0.05, 5.4814402007468725614e-10},
    };
    for (double[] c : cases) {
      assertThat(GaussianDpConversion.delta(c[0], c[1]))
          .as("mu=%s eps=%s", c[0], c[1])
          .isCloseTo(c[2], withinPercentage(1e-8));
    }
  }

  @Test
  void epsilonAndMuMatchHighPrecisionReferences() {
    assertThat(GaussianDpConversion.epsilon(1, 1e-5))
        .isCloseTo(4.3771780956812246277, within(1e-12));
    assertThat(GaussianDpConversion.epsilon(0.5, 1e-100))
        .isCloseTo(10.672945439809632595, within(1e-11));
    assertThat(GaussianDpConversion.epsilon(2, 1e-10))
        .isCloseTo(14.274089645078005565, within(1e-11));
    assertThat(GaussianDpConversion.mu(1, 1e-5)).isCloseTo(0.2680511232112942179, within(1e-13));
    assertThat(GaussianDpConversion.mu(0.1, 1e-6))
        .isCloseTo(0.027544650243827621729, within(1e-14));
    assertThat(GaussianDpConversion.mu(5, 1e-10))
        .isCloseTo(0.78077544840747526938, within(1e-13));
  }

  @Test
  void muIsRoundedDownSoThatItMeetsTheTarget() {
    double mu = GaussianDpConversion.mu(1, 1e-5);
    assertThat(GaussianDpConversion.delta(mu, 1)).isLessThanOrEqualTo(1e-5);
    assertThat(GaussianDpConversion.delta(Math.nextUp(mu), 1)).isGreaterThan(1e-5);
  }

  @Test
  void deltaAgreesWithTheDirectDifferenceWhereThatIsAccurate() {
    SplittableRandom rng = new SplittableRandom(20260101L);
    for (int i = 0; i < 500; i++) {
      double mu = 0.2 + 3 * rng.nextDouble();
      double eps = 2 * rng.nextDouble();
      double direct =
          StandardNormal.cdf(-eps / mu + mu / 2)
              - Math.exp(eps) * StandardNormal.cdf(-eps / mu - mu / 2);
      assertThat(GaussianDpConversion.delta(mu, eps)).isCloseTo(direct, within(1e-14));
    }
  }

  @Test
  void deltaIsMonotoneDecreasingInEpsilonAndIncreasingInMu() {
    SplittableRandom rng = new SplittableRandom(7);
    for (int i = 0; i < 500; i++) {
      double mu = 0.05 + 5 * rng.nextDouble();
      double e1 = 20 * rng.nextDouble();
      double e2 = e1 + 0.01 + rng.nextDouble();
      assertThat(GaussianDpConversion.delta(mu, e2))
          .isLessThanOrEqualTo(GaussianDpConversion.delta(mu, e1));
      assertThat(GaussianDpConversion.delta(mu * 1.01, e1))
          .isGreaterThanOrEqualTo(GaussianDpConversion.delta(mu, e1));
      double d1 = Math.pow(10, -1 - 15 * rng.nextDouble());
      assertThat(GaussianDpConversion.epsilon(mu, d1 / 10))
          .isGreaterThanOrEqualTo(GaussianDpConversion.epsilon(mu, d1));
    }
  }

  @Test
  void epsilonAndMuInvertEachOther() {
    SplittableRandom rng = new SplittableRandom(99);
    for (int i = 0; i < 200; i++) {
      double mu = 0.05 + 5 * rng.nextDouble();
      double delta = Math.pow(10, -1 - 12 * rng.nextDouble());
      double eps = GaussianDpConversion.epsilon(mu, delta);
      if (eps > 0) {
        assertThat(GaussianDpConversion.mu(eps, delta)).isCloseTo(mu, withinPercentage(1e-7));
      }
    }
  }

  @Test
  void profileOfZeroMuIsPerfectlyPrivate() {
    var profile = GaussianDpConversion.toProfile(new GaussianDp(0));
    assertThat(profile.delta(0)).isZero();
    assertThat(profile.epsilon(1e-9)).isZero();
  }

  @Test
  void profileAnswersBracketTheExactValueAndRoundUpPastTheEvaluationError() {
    // {μ, δ, exact ε(δ)}: mpmath at 50 digits, bisection on Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).
    double[][] cases = {
      {1, 1e-5, 4.377178095681224627650116},
      {0.5, 1e-10, 3.099430330243196050640159},
      {3, 1e-6, 18.16344575907847479863698},
      {0.01, 1e-3, 0.009048072593038798131394732},
      {10, 1e-12, 119.588408712313359713155},
      {1e-4, 1e-5, 0.00009023709432563504476853234},
    };
    for (double[] c : cases) {
      var profile = GaussianDpConversion.toProfile(new GaussianDp(c[0]));
      var bounds = profile.epsilonBounds(c[1]);
      assertThat(bounds.upper()).as("mu %s", c[0]).isEqualTo(profile.epsilon(c[1]))
          .isGreaterThanOrEqualTo(c[2])
          .isGreaterThanOrEqualTo(GaussianDpConversion.epsilon(c[0], c[1]));
      assertThat(bounds.lower()).as("mu %s", c[0]).isLessThanOrEqualTo(c[2]);
      // exact up to the last bits, except where the two terms of δ cancel (μ = 1e-4: by 1e4)
      assertThat(bounds.gap()).as("mu %s", c[0]).isLessThanOrEqualTo(1e-9 * c[2]);
      var deltas = profile.deltaBounds(c[2]);
      assertThat(deltas.lower()).isLessThanOrEqualTo(c[1] * (1 + 1e-15));
      assertThat(deltas.upper()).isEqualTo(profile.delta(c[2]))
          .isGreaterThanOrEqualTo(c[1] * (1 - 1e-15));
    }
    assertThat(GaussianDpConversion.toProfile(new GaussianDp(1)).epsilon(0)).isInfinite();
  }

  @Test
  void rdpOfGdpIsAlphaMuSquaredOverTwo() {
    var rdp = GaussianDpConversion.toRenyiDp(new GaussianDp(2), new double[] {1.5, 10});
    assertThat(rdp.epsilons()).containsExactly(3, 20);
  }

  @Test
  void rejectsBadInputsNamingTheParameter() {
    assertThatThrownBy(() -> GaussianDpConversion.delta(-1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mu");
    assertThatThrownBy(() -> GaussianDpConversion.delta(1, Double.NaN))
        .hasMessageContaining("epsilon");
    assertThatThrownBy(() -> GaussianDpConversion.epsilon(1, 0)).hasMessageContaining("delta");
    assertThatThrownBy(() -> GaussianDpConversion.epsilon(1, 1)).hasMessageContaining("delta");
    assertThatThrownBy(() -> GaussianDpConversion.epsilon(Double.POSITIVE_INFINITY, 1e-5))
        .hasMessageContaining("mu");
    assertThatThrownBy(() -> GaussianDpConversion.mu(-0.5, 1e-5))
        .hasMessageContaining("epsilon must be >= 0 and finite, but was -0.5");
  }
}
