package dev.tradeoff.accounting.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RdpConversionTest {

  @Test
  void classicConversionIsTauPlusLogInverseDeltaOverAlphaMinusOne() {
    assertThat(RdpConversion.classicEpsilon(11, 0.5, 1e-5))
        .isCloseTo(0.5 + Math.log(1e5) / 10, within(1e-15));
  }

  @Test
  void improvedConversionMatchesItsClosedForm() {
    // α = 2, τ = 0.3, δ = 1e-6: 0.3 + log(1/2) − (log 1e-6 + log 2)
    double expected = 0.3 + Math.log(0.5) - (Math.log(1e-6) + Math.log(2));
    assertThat(RdpConversion.improvedEpsilon(2, 0.3, 1e-6)).isCloseTo(expected, within(1e-14));
  }

  @Test
  void improvedDeltaInvertsImprovedEpsilon() {
    SplittableRandom rng = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      double alpha = 1.01 + 100 * rng.nextDouble();
      double tau = 5 * rng.nextDouble();
      double delta = Math.pow(10, -1 - 15 * rng.nextDouble());
      double eps = RdpConversion.improvedEpsilon(alpha, tau, delta);
      if (eps > 0) {
        assertThat(RdpConversion.improvedDelta(alpha, tau, eps))
            .isCloseTo(delta, within(delta * 1e-9));
      }
    }
  }

  @Test
  void improvedIsNeverWorseThanClassic() {
    SplittableRandom rng = new SplittableRandom(4);
    for (int i = 0; i < 2000; i++) {
      double alpha = 1.001 + 1000 * rng.nextDouble() * rng.nextDouble();
      double tau = 10 * rng.nextDouble();
      double delta = Math.pow(10, -1 - 20 * rng.nextDouble());
      assertThat(RdpConversion.improvedEpsilon(alpha, tau, delta))
          .isLessThanOrEqualTo(RdpConversion.classicEpsilon(alpha, tau, delta));
    }
  }

  @Test
  void bestOrderIsTheMinimiserOverTheGridAndIsReported() {
    double[] orders = RenyiDp.defaultOrders();
    RenyiDp rdp = RdpConversion.zcdpToRenyiDp(new ZeroConcentratedDp(0.05), orders);
    RdpConversion.EpsilonAtOrder best = RdpConversion.bestImproved(rdp, 1e-5);
    for (double a : orders) {
      assertThat(best.epsilon())
          .isLessThanOrEqualTo(RdpConversion.improvedEpsilon(a, 0.05 * a, 1e-5));
    }
    assertThat(best.epsilon())
        .isEqualTo(RdpConversion.improvedEpsilon(best.order(), 0.05 * best.order(), 1e-5));
    assertThat(RdpConversion.bestClassic(rdp, 1e-5).epsilon())
        .isGreaterThanOrEqualTo(best.epsilon());
  }

  @Test
  void zcdpConversionIsNearTheKnownContinuousOptimum() {
    // ρ-zCDP classic: ε = ρ + 2√(ρ log(1/δ)) at the continuous optimum; the grid is within 1%.
    double rho = 0.05;
    RenyiDp rdp = RdpConversion.zcdpToRenyiDp(new ZeroConcentratedDp(rho), RenyiDp.defaultOrders());
    double optimum = rho + 2 * Math.sqrt(rho * Math.log(1e5));
    double classic = RdpConversion.bestClassic(rdp, 1e-5).epsilon();
    assertThat(classic).isGreaterThanOrEqualTo(optimum - 1e-12).isLessThan(optimum * 1.01);
  }

  @Test
  void profileDeltaAndEpsilonAreConsistent() {
    RenyiDp rdp = RdpConversion.zcdpToRenyiDp(new ZeroConcentratedDp(0.3), RenyiDp.defaultOrders());
    RdpProfile profile = RdpConversion.toProfile(rdp);
    SplittableRandom rng = new SplittableRandom(5);
    for (int i = 0; i < 200; i++) {
      double delta = Math.pow(10, -1 - 14 * rng.nextDouble());
      double eps = profile.epsilon(delta);
      assertThat(profile.delta(eps)).isLessThanOrEqualTo(delta * (1 + 1e-9));
      assertThat(profile.delta(eps * 0.999)).isGreaterThan(delta);
    }
  }

  @Test
  void zeroCurveStillPaysTheConversionCostAndNeverCertifiesZeroDelta() {
    RdpProfile profile = new RdpProfile(RenyiDp.of(new double[] {2, 3}, new double[] {0, 0}));
    assertThat(profile.epsilon(0)).isInfinite();
    assertThat(profile.epsilon(1e-9)).isEqualTo(RdpConversion.improvedEpsilon(3, 0, 1e-9));
    assertThat(profile.epsilon(0.2)).isZero();
  }

  @Test
  void profileOfInfiniteCurveGivesNoFiniteEpsilon() {
    RdpProfile profile =
        new RdpProfile(
            RenyiDp.of(
                new double[] {2, 3}, new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY}));
    assertThat(profile.epsilon(1e-5)).isInfinite();
    assertThat(profile.delta(10)).isEqualTo(1);
    assertThatThrownBy(() -> RdpConversion.bestImproved(profile.rdp(), 1e-5))
        .hasMessageContaining("rdp must be finite");
  }

  @Test
  void rejectsBadInputs() {
    assertThatThrownBy(() -> RdpConversion.classicEpsilon(1, 0.1, 1e-5))
        .hasMessageContaining("alpha must be > 1");
    assertThatThrownBy(() -> RdpConversion.improvedEpsilon(2, -0.1, 1e-5))
        .hasMessageContaining("tau");
    assertThatThrownBy(() -> RdpConversion.improvedEpsilon(2, 0.1, 0))
        .hasMessageContaining("delta must be in (0, 1)");
    assertThatThrownBy(() -> RdpConversion.improvedDelta(2, Double.NaN, 1))
        .hasMessageContaining("tau");
    assertThatThrownBy(() -> new RdpProfile(null)).hasMessageContaining("rdp");
  }
}
