package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GaussianTradeoffTest {

  /** Relative closeness, in units of 1 (not percent). */
  private static void assertRelative(double actual, double expected, double rel) {
    assertThat(Math.abs(actual - expected)).isLessThanOrEqualTo(rel * Math.abs(expected));
  }

  @Test
  void matchesHighPrecisionValuesInBothTails() {
    // References: mpmath at 250 digits, Phi(Phi^{-1}(1 - alpha) - mu).
    assertRelative(new GaussianTradeoff(1).beta(0.05), 0.74048897715855592935, 1e-14);
    assertRelative(new GaussianTradeoff(0.5).beta(0.999), 1.6519169034684892317e-4, 1e-12);
    assertRelative(new GaussianTradeoff(30).beta(1e-10), 7.7202435101603386118e-124, 1e-12);
    // alpha = 1e-100: 1 - G_10 = 8.87e-30, far below the resolution of beta near 1.
    assertThat(new GaussianTradeoff(10).beta(1e-100)).isEqualTo(1.0);
    assertThat(new GaussianTradeoff(5).beta(1e-300)).isEqualTo(1.0);
    assertThat(new GaussianTradeoff(3).beta(0)).isEqualTo(1.0);
    assertThat(new GaussianTradeoff(3).beta(1)).isEqualTo(0.0);
  }

  @Test
  void zeroMuIsPerfectPrivacy() {
    GaussianTradeoff g = new GaussianTradeoff(0);
    for (double a = 0; a <= 1; a += 0.0625) {
      assertThat(g.beta(a)).isCloseTo(1 - a, within(1e-15));
    }
    assertThat(g.delta(0)).isEqualTo(0);
  }

  @Test
  void isSymmetricAndAValidTradeoffFunction() {
    SplittableRandom rng = new SplittableRandom(3);
    for (int trial = 0; trial < 2000; trial++) {
      double mu = 5 * rng.nextDouble();
      double alpha = Math.pow(10, -12 * rng.nextDouble());
      GaussianTradeoff g = new GaussianTradeoff(mu);
      double beta = g.beta(alpha);
      assertThat(beta).isLessThanOrEqualTo(1 - alpha + 1e-16);
      if (beta > 1e-300 && beta < 1 - 1e-6) {
        assertRelative(g.beta(beta), alpha, 1e-8);
      }
      assertThat(g.inverse()).isSameAs(g);
    }
  }

  @Test
  void roundTripsTheGaussianDpGuarantee() {
    assertThat(GaussianTradeoff.of(new GaussianDp(1.5)).toGaussianDp())
        .isEqualTo(new GaussianDp(1.5));
  }

  @Test
  void profileMatchesTheGdpClosedFormToHighPrecision() {
    // delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mpmath at 60 digits.
    double[][] cases = {
      {1, 0, 0.38292492254802620728},
      {1, 1, 0.1269367375066439458},
      {1, 5, 5.7937216919194941042e-7},
      {0.5, 1, 0.0068295949831145753842},
      {2, 3, 0.18381307654447215597},
      {10, 30, 0.9706018543468586686},
      {0.1, 1, 1.2308359836427112292e-25},
      {1, 30, 4.709326318097522197e-193},
      {3, 100, 9.6252134694763040132e-224},
      {0.05, 0.001, 0.019458753851212425639},
      {10, 0.5, 0.99999926472176652917},
    };
    for (double[] c : cases) {
      assertRelative(new GaussianTradeoff(c[0]).delta(c[1]), c[2], 1e-12);
    }
    assertThat(new GaussianTradeoff(50).delta(10)).isCloseTo(1.0, within(1e-15));
    // Far past the representable range it underflows to 0, never to a negative or NaN.
    assertThat(new GaussianTradeoff(1).delta(1000)).isEqualTo(0.0);
  }

  @Test
  void profileAgreesWithTheDirectFormulaWhereThereIsNoCancellation() {
    SplittableRandom rng = new SplittableRandom(5);
    for (int trial = 0; trial < 2000; trial++) {
      double mu = 0.2 + 5 * rng.nextDouble();
      double eps = 10 * rng.nextDouble();
      double first = StandardNormal.cdf(-eps / mu + mu / 2);
      double second = Math.exp(eps) * StandardNormal.cdf(-eps / mu - mu / 2);
      double direct = first - second;
      if (second < 0.5 * first && direct > 1e-290) {
        assertRelative(new GaussianTradeoff(mu).delta(eps), direct, 1e-12);
      }
    }
  }

  @Test
  void profileIsTheConvexConjugateOfTheCurve() {
    // delta(eps) = sup_alpha 1 - G(alpha) - e^eps alpha (Proposition 2.12), maximized on a grid.
    for (double mu : new double[] {0.5, 1, 2}) {
      GaussianTradeoff g = new GaussianTradeoff(mu);
      for (double eps : new double[] {0, 0.5, 1, 2}) {
        double best = 0;
        for (int i = 0; i <= 400000; i++) {
          double a = Math.pow(10, -16.0 * i / 400000);
          best = Math.max(best, 1 - g.beta(a) - Math.exp(eps) * a);
        }
        assertThat(g.delta(eps)).isGreaterThanOrEqualTo(best - 1e-15);
        assertThat(g.delta(eps)).isCloseTo(best, within(1e-8));
      }
    }
  }

  @Test
  void profileEpsilonOfDeltaInvertsDelta() {
    GaussianTradeoff g = new GaussianTradeoff(10);
    double eps = g.profile().epsilon(1e-5);
    // Issue 2: mu = 10 GDP at delta = 1e-5 gives epsilon = 91.81728962.
    assertThat(eps).isCloseTo(91.81728962, withinPercentage(1e-7));
    assertThat(g.delta(eps)).isLessThanOrEqualTo(1e-5);
  }

  @Test
  void composesByTheRootSumOfSquares() {
    GaussianTradeoff g = new GaussianTradeoff(3).compose(new GaussianTradeoff(4));
    assertThat(g.mu()).isCloseTo(5, within(1e-14)).isGreaterThanOrEqualTo(5);
    assertThat(new GaussianTradeoff(0).compose(new GaussianTradeoff(0)).mu()).isEqualTo(0);
  }

  @Test
  void piecewiseLinearLowerBoundIsBelowWithinItsGap() {
    for (double mu : new double[] {0.1, 0.5, 1, 3, 8}) {
      GaussianTradeoff g = new GaussianTradeoff(mu);
      TradeoffBound bound = g.lowerPiecewiseLinear(400);
      PiecewiseLinearTradeoffTest.assertValid(bound.lower());
      assertThat(bound.gap()).isLessThan(2.5e-4 * Math.max(1, mu));
      assertThat(bound.lower().vertexBeta(0)).isEqualTo(1.0);
      for (int i = 0; i <= 20000; i++) {
        double a = i / 20000.0;
        double lower = bound.lower().beta(a);
        assertThat(lower).isLessThanOrEqualTo(g.beta(a) + 1e-15);
        assertThat(lower).isGreaterThanOrEqualTo(g.beta(a) - bound.gap() - 1e-15);
      }
    }
    assertThat(new GaussianTradeoff(1).lowerPiecewiseLinear(4000).gap()).isLessThan(1e-5);
  }

  @Test
  void smallestMuOfTheApproximationOfGMuIsSlightlyAboveMu() {
    for (double mu : new double[] {0.3, 1, 2.5}) {
      TradeoffBound bound = new GaussianTradeoff(mu).lowerPiecewiseLinear(2000);
      double fitted = GaussianTradeoff.smallestMuBelow(bound.lower());
      assertThat(fitted).isGreaterThanOrEqualTo(mu).isLessThan(mu * 1.01);
    }
  }

  @Test
  void smallestMuOfPureDpIsAttainedAtTheKink() {
    for (double eps : new double[] {0.1, 1, 3}) {
      PiecewiseLinearTradeoff f = new ApproxDpTradeoff(eps, 0).toPiecewiseLinear();
      double k = 1 / (1 + Math.exp(eps));
      double expected = -2 * StandardNormal.inverseCdf(k);
      assertRelative(GaussianTradeoff.smallestMuBelow(f), expected, 1e-12);
    }
    // With delta > 0, f(0) < 1 = G_mu(0): no mu works.
    assertThat(GaussianTradeoff.smallestMuBelow(new ApproxDpTradeoff(1, 1e-6).toPiecewiseLinear()))
        .isInfinite();
  }

  @Test
  void smallestMuIsCertifiedOnSegmentInteriorsAndTight() {
    // G_mu is convex and the curve linear on each segment, so checking vertices is enough; this
    // test confirms it by dense sampling of every segment, and checks that mu cannot be lowered.
    SplittableRandom rng = new SplittableRandom(17);
    int checked = 0;
    for (int trial = 0; trial < 300; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng);
      double mu = GaussianTradeoff.smallestMuBelow(f);
      if (Double.isInfinite(mu)) {
        assertThat(f.vertexBeta(0) < 1 || hasZeroBeforeOne(f)).isTrue();
        continue;
      }
      checked++;
      GaussianTradeoff g = new GaussianTradeoff(mu);
      assertThat(g.isBelow(f)).isTrue();
      for (int s = 0; s < f.segmentCount(); s++) {
        for (int j = 0; j <= 200; j++) {
          double a = f.vertexAlpha(s) + (f.vertexAlpha(s + 1) - f.vertexAlpha(s)) * j / 200.0;
          assertThat(g.beta(a)).isLessThanOrEqualTo(f.beta(a) + 1e-15);
        }
      }
      if (mu > 1e-6) {
        assertThat(new GaussianTradeoff(mu * (1 - 1e-9)).isBelow(f)).isFalse();
      }
    }
    assertThat(checked).isGreaterThan(20);
  }

  private static boolean hasZeroBeforeOne(PiecewiseLinearTradeoff f) {
    return f.vertexBeta(f.vertexCount() - 2) == 0;
  }

  @Test
  void rejectsInvalidParameters() {
    assertThatThrownBy(() -> new GaussianTradeoff(-1))
        .hasMessage("mu must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new GaussianTradeoff(Double.NaN))
        .hasMessage("mu must be >= 0 and finite, but was NaN");
    assertThatThrownBy(() -> new GaussianTradeoff(Double.POSITIVE_INFINITY))
        .hasMessage("mu must be >= 0 and finite, but was Infinity");
    assertThatThrownBy(() -> new GaussianTradeoff(1).beta(-0.5))
        .hasMessage("alpha must be in [0, 1], but was -0.5");
    assertThatThrownBy(() -> new GaussianTradeoff(1).delta(-1))
        .hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new GaussianTradeoff(1).lowerPiecewiseLinear(1))
        .hasMessage("tangents must be >= 2, but was 1");
  }
}
