package dev.tradeoff.mechanisms.gaussian;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.kolmogorovCriticalValue;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.scaledKolmogorovSmirnov;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class GaussianMechanismTest {

  /** σ for Δ = 1 by bisection on Balle–Wang's Theorem 8 in an independent (Python) computation. */
  @Test
  void analyticCalibrationMatchesIndependentReferenceValues() {
    assertThat(AnalyticGaussian.sigma(1, 1e-5, 1)).isCloseTo(3.730631634815938, within(1e-8));
    assertThat(AnalyticGaussian.sigma(0.5, 1e-6, 1)).isCloseTo(8.057618480725015, within(1e-8));
    assertThat(AnalyticGaussian.sigma(3, 1e-10, 1)).isCloseTo(2.062253178907407, within(1e-8));
    // linear in the sensitivity
    assertThat(AnalyticGaussian.sigma(1, 1e-5, 7))
        .isCloseTo(7 * 3.730631634815938, within(1e-7));
  }

  @Test
  void analyticCalibrationIsTightAndOnTheSafeSide() {
    for (double[] c : new double[][] {{1, 1e-5}, {0.1, 1e-8}, {5, 1e-3}, {0.01, 0.1}}) {
      double sigma = AnalyticGaussian.sigma(c[0], c[1], 1);
      assertThat(GaussianDpConversion.delta(1 / sigma, c[0])).isLessThanOrEqualTo(c[1]);
      assertThat(GaussianDpConversion.delta(1 / (sigma * (1 - 1e-7)), c[0]))
          .isGreaterThan(c[1] * (1 - 1e-9));
    }
  }

  @Test
  void analyticGaussianBeatsTheClassicalCalibration() {
    double classical = Math.sqrt(2 * Math.log(1.25 / 1e-5)) / 1; // Dwork–Roth Theorem A.1
    assertThat(AnalyticGaussian.sigma(1, 1e-5, 1)).isLessThan(classical);
  }

  @Test
  void mechanismNoiseIsNormalWithTheCalibratedSigma() {
    GaussianMechanism m = GaussianMechanism.of(1, 1e-5, 2);
    double continuous = 2 * 3.730631634815938;
    assertThat(m.sigma()).isGreaterThanOrEqualTo(continuous).isLessThan(continuous * (1 + 1e-8));
    RandomGenerator random = Randomness.seeded(50);
    double[] samples = new double[20_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = m.release(42.0, random) - 42.0;
    }
    double sigma = m.sigma();
    assertThat(scaledKolmogorovSmirnov(samples, x -> StandardNormal.cdf(x / sigma)))
        .isLessThan(kolmogorovCriticalValue());
  }

  @Test
  void latticeSlackIsTinyAndPaidOutOfDelta() {
    GaussianMechanism m = GaussianMechanism.of(1, 1e-5, 1);
    double gridSigma = m.sigma() / m.noise().grid().granularity();
    assertThat(GaussianMechanism.latticeSlack(1, gridSigma)).isLessThan(1e-11);
    // the lattice sigma meets δ − slack for the lattice sensitivity
    double gridSensitivity = m.noise().grid().indexSensitivity(1).doubleValue();
    double slack = GaussianMechanism.latticeSlack(1, gridSigma);
    assertThat(GaussianDpConversion.delta(gridSensitivity / gridSigma, 1))
        .isLessThanOrEqualTo(1e-5 - slack);
  }

  @Test
  void statesApproxDpAndAZcdpEvent() {
    GaussianMechanism m = GaussianMechanism.of(1, 1e-5, 1);
    assertThat(m.guarantee()).isEqualTo(new ApproxDp(1, 1e-5));
    ZeroConcentratedDp z = m.concentratedGuarantee();
    double rho = 1 / (2 * Math.pow(m.sigma(), 2));
    assertThat(z.rho()).isGreaterThanOrEqualTo(rho * (1 - 1e-11)).isLessThan(rho * (1 + 1e-11));
    assertThat(m.event()).isEqualTo(new GuaranteeEvent(z));
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> GaussianMechanism.of(1, 0, 1))
        .hasMessage("delta must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> GaussianMechanism.of(-1, 1e-5, 1))
        .hasMessage("epsilon must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> GaussianMechanism.of(1, 1e-5, Double.NaN))
        .hasMessage("sensitivity must be > 0 and finite, but was NaN");
    assertThatThrownBy(() -> GaussianMechanism.of(1, 1e-5, 1).release(Double.NaN, Randomness.seeded(1)))
        .hasMessage("value must be finite, but was NaN");
  }

  @Test
  void discreteGaussianMechanismFitsItsPmfAndStatesZcdp() {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.of(2, 1);
    assertThat(m.guarantee().rho()).isEqualTo(0.125);
    assertThat(m.event()).isEqualTo(new DiscreteGaussianEvent(2));
    assertThat(DiscreteGaussianMechanism.of(2, 3).event())
        .isEqualTo(new GuaranteeEvent(new ZeroConcentratedDp(9.0 / 8)));
    RandomGenerator random = Randomness.seeded(51);
    long[] samples = new long[100_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = m.release(-5L, random) + 5;
    }
    assertThat(chiSquarePValue(samples, y -> Math.exp(m.noise().logPmf(y)), 0)).isGreaterThan(ALPHA);
  }

  @Test
  void discreteGaussianForZcdpMeetsRho() {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.forZcdp(0.3, 2);
    assertThat(m.guarantee().rho()).isLessThanOrEqualTo(0.3).isGreaterThan(0.3 * (1 - 1e-12));
    assertThatThrownBy(() -> DiscreteGaussianMechanism.forZcdp(0, 1))
        .hasMessage("rho must be > 0 and finite, but was 0.0");
  }

  @Test
  void everyReleaseIsFinite() {
    GaussianMechanism m = GaussianMechanism.of(1, 1e-5, 1);
    RandomGenerator random = Randomness.seeded(308);
    for (double x : new double[] {1e308, -1e308, Double.MAX_VALUE, -Double.MAX_VALUE}) {
      double released = m.release(x, random);
      assertThat(Double.isFinite(released)).as("%s -> %s", x, released).isTrue();
      assertThat(released).isEqualTo(x);
    }
  }

  @Test
  void aTinyEpsilonIsEitherRefusedOrReleasedFinitely() {
    RandomGenerator random = Randomness.seeded(1300);
    for (double epsilon : new double[] {1e-300, 1e-308, Double.MIN_VALUE}) {
      GaussianMechanism m;
      try {
        m = GaussianMechanism.of(epsilon, 1e-5, 1);
      } catch (IllegalArgumentException refused) {
        assertThat(refused).as("epsilon %s", epsilon).hasMessageStartingWith("epsilon must be");
        continue;
      }
      assertThat(m.sigma()).as("epsilon %s", epsilon).isFinite();
      for (double x : new double[] {0, 1e308, -Double.MAX_VALUE}) {
        assertThat(m.release(x, random)).as("epsilon %s, x %s", epsilon, x).isFinite();
      }
    }
  }
}
