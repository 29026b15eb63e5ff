package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProfileTradeoffRoundTripTest {

  @Test
  void approxDpRoundTripsExactlyThroughItsProfile() {
    SplittableRandom rng = new SplittableRandom(31);
    for (int trial = 0; trial < 300; trial++) {
      double eps = 4 * rng.nextDouble();
      double delta = rng.nextDouble() < 0.3 ? 0 : Math.pow(10, -10 * rng.nextDouble()) * 0.5;
      ApproxDpTradeoff f = new ApproxDpTradeoff(eps, delta);
      double[] grid = {0, eps / 2, eps, eps + 1};
      PiecewiseLinearTradeoff back = Tradeoffs.fromProfile(f.profile(), grid);
      PiecewiseLinearTradeoff exact = f.toPiecewiseLinear();
      assertThat(back.maxExcessOver(exact)).isLessThanOrEqualTo(1e-14);
      assertThat(exact.maxExcessOver(back)).isLessThanOrEqualTo(1e-14);
    }
  }

  @Test
  void gaussianRoundTripIsALowerBoundWithinTheStatedTolerance() {
    // Grid of 4001 epsilons on [0, 40] (spacing 0.01): the recovered curve is below G_mu (safe)
    // and within 2e-5 of it. The grid must reach eps ~ mu (mu/2 + 8.3), where the tests' type-II
    // error is 1e-16, or the steep start of the curve near alpha = 0 is lost.
    double[] grid = Tradeoffs.epsilonGrid(40, 4001);
    for (double mu : new double[] {0.5, 1, 2, 3}) {
      GaussianTradeoff g = new GaussianTradeoff(mu);
      PiecewiseLinearTradeoff back = Tradeoffs.fromProfile(g.profile(), grid);
      PiecewiseLinearTradeoffTest.assertValid(back);
      double worst = 0;
      for (int i = 0; i <= 20000; i++) {
        double a = i / 20000.0;
        double diff = g.beta(a) - back.beta(a);
        assertThat(diff).isGreaterThanOrEqualTo(-1e-15);
        worst = Math.max(worst, diff);
      }
      assertThat(worst).isLessThan(2e-5);
    }
  }

  @Test
  void tradeoffToProfileToTradeoffNeverRaisesTheCurve() {
    SplittableRandom rng = new SplittableRandom(37);
    for (int trial = 0; trial < 300; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng).symmetrized();
      PrivacyProfile profile = new TradeoffProfile(f);
      PiecewiseLinearTradeoff back = Tradeoffs.fromProfile(profile, Tradeoffs.epsilonGrid(6, 300));
      PiecewiseLinearTradeoffTest.assertValid(back);
      assertThat(back.maxExcessOver(f)).isLessThanOrEqualTo(1e-14);
      // With the epsilons of every segment slope on the grid the round trip is exact.
      double[] exactGrid = new double[f.segmentCount()];
      int k = 0;
      for (double s : f.slopes()) {
        if (s < 0) {
          exactGrid[k++] = Math.abs(Math.log(-s));
        }
      }
      PiecewiseLinearTradeoff exactBack =
          Tradeoffs.fromProfile(profile, java.util.Arrays.copyOf(exactGrid, Math.max(k, 1)));
      assertThat(Math.abs(exactBack.maxExcessOver(f))).isLessThanOrEqualTo(1e-12);
      assertThat(f.maxExcessOver(exactBack)).isLessThanOrEqualTo(1e-12);
    }
  }

  @Test
  void profileOfTheTangentBoundOfGMuBracketsTheGdpProfile() {
    GaussianTradeoff g = new GaussianTradeoff(1.5);
    TradeoffBound bound = g.lowerPiecewiseLinear(800);
    TradeoffProfile profile = new TradeoffProfile(bound.lower());
    for (double eps = 0; eps <= 6; eps += 0.25) {
      // A lower curve gives a larger delta (safe), by at most the gap.
      assertThat(profile.delta(eps)).isGreaterThanOrEqualTo(g.delta(eps) - 1e-15);
      assertThat(profile.delta(eps)).isLessThanOrEqualTo(g.delta(eps) + bound.gap() + 1e-15);
    }
  }

  @Test
  void profileIsNonIncreasingAndInvertible() {
    SplittableRandom rng = new SplittableRandom(41);
    for (int trial = 0; trial < 200; trial++) {
      TradeoffProfile profile =
          new TradeoffProfile(PiecewiseLinearTradeoffTest.randomCurve(rng).symmetrized());
      double prev = profile.delta(0);
      for (double eps = 0.1; eps < 8; eps += 0.1) {
        double d = profile.delta(eps);
        assertThat(d).isLessThanOrEqualTo(prev).isGreaterThanOrEqualTo(0);
        prev = d;
      }
      double target = 0.5 * profile.delta(0.5) + 1e-12;
      if (target < 1 && target > 0) {
        double eps = profile.epsilon(target);
        if (Double.isInfinite(eps)) {
          // Only when delta never falls below the jump 1 - f(0) at alpha = 0.
          assertThat(profile.delta(1e6)).isGreaterThan(target);
        } else {
          assertThat(profile.delta(eps)).isLessThanOrEqualTo(target);
        }
      }
    }
  }

  @Test
  void rejectsBadGridsAndProfiles() {
    assertThatThrownBy(() -> Tradeoffs.fromProfile(new GaussianTradeoff(1).profile(),
            new double[] {0, Double.NaN}))
        .hasMessage("epsilons[1] must be finite, but was NaN");
    assertThatThrownBy(() -> Tradeoffs.fromProfile(new GaussianTradeoff(1).profile(),
            new double[] {-1}))
        .hasMessage("epsilons[0] must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> Tradeoffs.fromProfile(e -> 1.5, new double[] {0}))
        .hasMessage("delta(0.0) must be in [0, 1], but was 1.5");
    assertThatThrownBy(() -> Tradeoffs.epsilonGrid(0, 5))
        .hasMessage("maxEpsilon must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new TradeoffProfile(PiecewiseLinearTradeoff.identity()).delta(-2))
        .hasMessage("epsilon must be >= 0 and finite, but was -2.0");
    assertThat(new TradeoffProfile(PiecewiseLinearTradeoff.identity()).delta(0))
        .isCloseTo(0, within(0.0));
  }
}
