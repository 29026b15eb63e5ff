package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * References: A_α = ∫ N(0,σ²)(z) ((1−q) + q e^{(2z−1)/(2σ²)})^α dz by mpmath quadrature at 40
 * digits (the definition, independent of both series used here).
 */
class SampledGaussianRdpTest {

  @Test
  void matchesNumericalIntegrationAtIntegerAndFractionalOrders() {
    double[][] cases = {
      {0.01, 1, 2, 0.00017181342207454793814},
      {0.01, 1, 2.5, 0.00021757533228188046173},
      {0.01, 1, 8, 0.00089364390760603189425},
      {0.01, 1, 8.75, 0.0013092791444292476402},
      {0.01, 1, 32, 11.246275937048068857},
      {0.1, 2, 3.25, 0.0047719956478267724008},
      {0.1, 2, 17, 0.056189468391211867625},
      {0.5, 0.8, 1.5, 0.40983886045365722436},
      {0.001, 5, 1.05, 2.1424814957989737582e-8},
    };
    for (double[] c : cases) {
      assertThat(SampledGaussianRdp.epsilon(c[0], c[1], c[2]))
          .as("q=%s sigma=%s alpha=%s", c[0], c[1], c[2])
          .isCloseTo(c[3], within(1e-8 * c[3] + 2e-13 / (c[2] - 1)));
    }
  }

  @Test
  void fullSamplingIsThePlainGaussian() {
    for (double a : new double[] {1.5, 2, 7.25, 64}) {
      assertThat(SampledGaussianRdp.epsilon(1, 1.3, a)).isEqualTo(MechanismRdp.gaussian(1.3, a));
    }
  }

  @Test
  void nearFullSamplingApproachesThePlainGaussianFromBothSeries() {
    for (double a : new double[] {2.5, 3, 5.75, 6}) {
      assertThat(SampledGaussianRdp.epsilon(1 - 1e-9, 1.3, a))
          .isCloseTo(MechanismRdp.gaussian(1.3, a), withinPercentage(1e-4));
    }
  }

  @Test
  void noSamplingIsFree() {
    assertThat(SampledGaussianRdp.epsilon(0, 1, 2)).isZero();
  }

  @Test
  void fractionalSeriesAgreesWithIntegerBinomialSumAtIntegerOrders() {
    SplittableRandom rng = new SplittableRandom(31);
    for (int i = 0; i < 300; i++) {
      double q = Math.pow(10, -3 * rng.nextDouble()) * 0.999;
      double sigma = 0.6 + 5 * rng.nextDouble();
      int alpha = 2 + rng.nextInt(30);
      double viaInteger = SampledGaussianRdp.logAInteger(q, sigma, alpha);
      double viaSeries = SampledGaussianRdp.logAFractional(q, sigma, alpha);
      assertThat(viaSeries)
          .as("q=%s sigma=%s alpha=%s", q, sigma, alpha)
          .isCloseTo(viaInteger, withinPercentage(1e-7));
    }
  }

  @Test
  void fractionalOrdersInterpolateMonotonically() {
    SplittableRandom rng = new SplittableRandom(32);
    for (int i = 0; i < 300; i++) {
      double q = Math.pow(10, -3 * rng.nextDouble());
      double sigma = 0.6 + 5 * rng.nextDouble();
      int lower = 2 + rng.nextInt(20);
      double frac = lower + 0.05 + 0.9 * rng.nextDouble();
      double e = SampledGaussianRdp.epsilon(q, sigma, frac);
      assertThat(e)
          .isGreaterThanOrEqualTo(SampledGaussianRdp.epsilon(q, sigma, lower) * (1 - 1e-9))
          .isLessThanOrEqualTo(SampledGaussianRdp.epsilon(q, sigma, lower + 1) * (1 + 1e-9));
    }
  }

  @Test
  void subsamplingNeverHurtsAndMoreNoiseNeverHurts() {
    SplittableRandom rng = new SplittableRandom(33);
    for (int i = 0; i < 300; i++) {
      double q = 0.001 + 0.99 * rng.nextDouble();
      double sigma = 0.5 + 5 * rng.nextDouble();
      double alpha = 1.1 + 40 * rng.nextDouble();
      double e = SampledGaussianRdp.epsilon(q, sigma, alpha);
      assertThat(e).isLessThanOrEqualTo(MechanismRdp.gaussian(sigma, alpha) * (1 + 1e-9));
      assertThat(SampledGaussianRdp.epsilon(q, sigma * 1.2, alpha))
          .isLessThanOrEqualTo(e * (1 + 1e-9));
      assertThat(SampledGaussianRdp.epsilon(q * 0.8, sigma, alpha))
          .isLessThanOrEqualTo(e * (1 + 1e-9));
    }
  }

  @Test
  void smallSamplingRateScalesLikeQSquared() {
    // For small q, ε(α) ≈ q² α (e^{1/σ²} − 1)/2 (MTZ19 / Abadi et al. 2016, leading term).
    double q = 1e-4;
    double sigma = 2;
    double alpha = 3;
    double leading = q * q * alpha * Math.expm1(1 / (sigma * sigma)) / 2;
    assertThat(SampledGaussianRdp.epsilon(q, sigma, alpha))
        .isCloseTo(leading, withinPercentage(0.1));
  }

  @Test
  void theReverseDirectionIsNeverLarger() {
    // D_α(μ₀‖μ) by trapezoidal quadrature must not exceed the reported D_α(μ‖μ₀).
    double[][] cases = {{0.01, 1, 8}, {0.2, 0.9, 3.5}, {0.5, 2, 20}, {0.05, 1.5, 1.5}};
    for (double[] c : cases) {
      double q = c[0];
      double s = c[1];
      double a = c[2];
      double h = 1e-3;
      double sum = 0;
      for (double z = -40 * s; z <= 40 * s + 1; z += h) {
        double p0 = Math.exp(-z * z / (2 * s * s));
        double mix = (1 - q) * p0 + q * Math.exp(-(z - 1) * (z - 1) / (2 * s * s));
        if (mix > 0) {
          sum += Math.exp(a * Math.log(p0) + (1 - a) * Math.log(mix)) * h;
        }
      }
      double reverse = Math.log(sum / Math.sqrt(2 * Math.PI * s * s)) / (a - 1);
      assertThat(reverse).isLessThanOrEqualTo(SampledGaussianRdp.epsilon(q, s, a) * (1 + 1e-6));
    }
  }

  @Test
  void rejectsBadInputs() {
    assertThatThrownBy(() -> SampledGaussianRdp.epsilon(1.5, 1, 2)).hasMessageContaining("q");
    assertThatThrownBy(() -> SampledGaussianRdp.epsilon(0.1, 0, 2)).hasMessageContaining("sigma");
    assertThatThrownBy(() -> SampledGaussianRdp.epsilon(0.1, 1, 1)).hasMessageContaining("alpha");
  }
}
