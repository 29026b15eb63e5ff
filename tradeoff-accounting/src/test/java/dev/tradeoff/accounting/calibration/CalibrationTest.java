package dev.tradeoff.accounting.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.util.SplittableRandom;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

class CalibrationTest {

  private static final Neighbouring REL = Neighbouring.ADD_OR_REMOVE_ONE;

  @Test
  void analyticGaussianMatchesTheInverseOfTheExactCondition() {
    // μ(ε=1, δ=1e-5) = 0.2680511232112942179 (mpmath), so σ = 1/μ = 3.730631...
    double sigma = AnalyticGaussian.sigma(1, 1e-5, 1);
    assertThat(sigma).isCloseTo(1 / 0.2680511232112942179, withinPercentage(1e-11));
    assertThat(GaussianDpConversion.delta(1 / sigma, 1)).isLessThanOrEqualTo(1e-5);
  }

  @Test
  void analyticGaussianBeatsTheClassicalCalibrationWhereThatIsValid() {
    // Dwork–Roth Thm A.1: σ = √(2 ln(1.25/δ))/ε for ε < 1; Balle–Wang is never larger.
    SplittableRandom rng = new SplittableRandom(71);
    for (int i = 0; i < 100; i++) {
      double eps = 0.01 + 0.98 * rng.nextDouble();
      double delta = Math.pow(10, -2 - 10 * rng.nextDouble());
      double sensitivity = 0.1 + 5 * rng.nextDouble();
      double sigma = AnalyticGaussian.sigma(eps, delta, sensitivity);
      assertThat(sigma)
          .isLessThanOrEqualTo(sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / eps);
      assertThat(GaussianDpConversion.delta(sensitivity / sigma, eps)).isLessThanOrEqualTo(delta);
      assertThat(GaussianDpConversion.delta(sensitivity / (sigma * (1 - 1e-9)), eps))
          .isGreaterThan(delta);
    }
  }

  @Test
  void laplaceScaleIsKOverEpsilonRoundedUp() {
    assertThat(LaplaceCalibration.scale(1, 10, 1)).isEqualTo(10);
    double b = LaplaceCalibration.scale(0.3, 7, 0.1);
    assertThat(7 * 0.1 / b).isLessThanOrEqualTo(0.3);
    assertThat(b).isCloseTo(7 * 0.1 / 0.3, within(1e-14));
  }

  @Test
  void genericCalibratorWithGdpReproducesTheAnalyticGaussian() {
    GaussianCalibrator calibrator = new GaussianCalibrator(new GdpAccountant());
    double sigma = calibrator.sigma(10, 1, 1e-5, REL);
    // k Gaussians with σ are one with σ/√k, so σ = √10 · analytic σ
    assertThat(sigma)
        .isCloseTo(Math.sqrt(10) * AnalyticGaussian.sigma(1, 1e-5, 1), withinPercentage(1e-7));
  }

  @Test
  void genericCalibratorReturnsASigmaTheAccountantCertifies() {
    RdpAccountant rdp = new RdpAccountant();
    GaussianCalibrator calibrator = new GaussianCalibrator(rdp);
    double sigma = calibrator.sigma(10, 1, 1e-5, REL);
    assertThat(rdp.account(new SelfComposedEvent(new GaussianEvent(sigma), 10), REL).epsilon(1e-5))
        .isLessThanOrEqualTo(1);
    assertThat(
            rdp.account(new SelfComposedEvent(new GaussianEvent(sigma * (1 - 1e-8)), 10), REL)
                .epsilon(1e-5))
        .isGreaterThan(1);
    // RDP is looser than the exact GDP analysis, so it needs at least as much noise
    assertThat(sigma)
        .isGreaterThanOrEqualTo(new GaussianCalibrator(new GdpAccountant()).sigma(10, 1, 1e-5, REL));
  }

  @Test
  void genericCalibratorHandlesSubsampledEvents() {
    RdpAccountant rdp = new RdpAccountant();
    double sigma =
        new GaussianCalibrator(rdp)
            .sigma(
                s -> new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(s)), 1000),
                2,
                1e-5,
                REL);
    // σ = 1 gives ε ≈ 2.10 (see RdpAccountantTest), so ε = 2 needs slightly more noise
    assertThat(sigma).isGreaterThan(1).isLessThan(1.1);
  }

  @Test
  void rejectsBadTargets() {
    GaussianCalibrator calibrator = new GaussianCalibrator(new GdpAccountant());
    assertThatThrownBy(() -> calibrator.sigma(0, 1, 1e-5, REL)).hasMessageContaining("count");
    assertThatThrownBy(() -> calibrator.sigma(1, 0, 1e-5, REL))
        .hasMessageContaining("targetEpsilon");
    assertThatThrownBy(() -> calibrator.sigma(1, 1, 1, REL)).hasMessageContaining("targetDelta");
    assertThatThrownBy(() -> AnalyticGaussian.sigma(1, 0, 1)).hasMessageContaining("delta");
    assertThatThrownBy(() -> AnalyticGaussian.sigma(1, 1e-5, -1))
        .hasMessageContaining("sensitivity");
    assertThatThrownBy(() -> LaplaceCalibration.scale(Double.NaN, 1, 1))
        .hasMessageContaining("epsilon");
    assertThatThrownBy(() -> new GaussianCalibrator(null)).hasMessageContaining("accountant");
  }

  @Test
  void dpSgdNoiseMultiplierIsTheSmallestThatMeetsTheTarget() {
    // The question Opacus's get_noise_multiplier answers, for 500 steps at q = 0.02.
    for (Accountant accountant : new Accountant[] {new PldAccountant(), new RdpAccountant()}) {
      GaussianCalibrator calibrator = new GaussianCalibrator(accountant);
      double sigma = calibrator.poissonSampledSigma(0.02, 500, 2, 1e-5);
      DoubleFunction<Double> epsilon = s -> accountant.account(
          new SelfComposedEvent(new PoissonSampledEvent(0.02, new GaussianEvent(s)), 500), REL)
          .epsilon(1e-5);
      assertThat(epsilon.apply(sigma)).as("%s", accountant).isLessThanOrEqualTo(2);
      // within 0.5% of the accountant's own smallest σ
      assertThat(epsilon.apply(sigma * (1 - GaussianCalibrator.DP_SGD_TOLERANCE)))
          .as("%s", accountant).isGreaterThan(2);
    }
    assertThatThrownBy(() -> new GaussianCalibrator(new RdpAccountant())
        .poissonSampledSigma(0, 10, 1, 1e-5))
        .hasMessage("q must be in (0, 1], but was 0.0");
  }

  @Test
  void pldCalibrationOfDpSgdIsCertifiedWithinHalfAPercentOfTheTrueSmallestSigma() {
    // q = 0.004, 10^4 steps at (1, 1e-5) and (2, 1e-12), 10^5 steps at (2, 1e-5): the returned σ
    // meets the target by the upper end of the PLD bracket and σ(1 − 0.005) misses it by the
    // lower end, so the smallest σ that truly meets the target lies within 0.5% below the answer.
    // At 10^5 steps the search's last refusal (σ = 2.6224 against 2.6317) has a bracket reaching
    // below 2; the certificate comes from one more accounting at σ(1 − 0.005).
    GaussianCalibrator calibrator = new GaussianCalibrator(new PldAccountant());
    for (double[] target : new double[][] {{1, 1e-5, 1e4}, {2, 1e-12, 1e4}, {2, 1e-5, 1e5}}) {
      GaussianCalibrator.Calibration c =
          calibrator.poissonSampled(0.004, (int) target[2], target[0], target[1]);
      assertThat(c.atSigma().upper()).isLessThanOrEqualTo(target[0]);
      assertThat(c.below()).isGreaterThanOrEqualTo(c.sigma() * (1 - 0.005));
      assertThat(c.certified(target[0])).as("%s", c).isTrue();
      assertThat(c.atBelow().lower()).isGreaterThan(target[0]);
    }
  }
}
