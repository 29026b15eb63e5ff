package dev.tradeoff.mechanisms.sampling;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.kolmogorovCriticalValue;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.scaledKolmogorovSmirnov;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class ContinuousSamplersTest {

  private static final int N = 50_000;

  @Test
  void exponentialFitsExpLambdaForUnitAndTinyRates() {
    for (double rate : new double[] {1.0, 3.5, 1e-4}) {
      Exponential e = new Exponential(rate);
      RandomGenerator random = Randomness.seeded(20);
      double[] samples = new double[N];
      for (int i = 0; i < N; i++) {
        samples[i] = e.sample(random);
        assertThat(samples[i]).isFinite().isNotNegative();
      }
      double ks = scaledKolmogorovSmirnov(samples, x -> -Math.expm1(-rate * x));
      assertThat(ks).as("rate %s", rate).isLessThan(kolmogorovCriticalValue());
    }
  }

  @Test
  void exponentialWithTinyRateHasMeanOneOverRate() {
    Exponential e = new Exponential(1e-3);
    RandomGenerator random = Randomness.seeded(21);
    double sum = 0;
    for (int i = 0; i < N; i++) {
      sum += e.sample(random);
    }
    // sd of the mean = 1000/sqrt(N)
    assertThat(Math.abs(sum / N - 1000)).isLessThan(4.5 * 1000 / Math.sqrt(N));
  }

  @Test
  void snappedLaplaceFitsTheLaplaceLawAndStaysOnItsLattice() {
    for (double scale : new double[] {1.0, 0.37, 2500.0}) {
      SnappedLaplace noise = SnappedLaplace.forScale(scale);
      double g = noise.grid().granularity();
      assertThat(g).isLessThanOrEqualTo(scale * 0x1.0p-40).isGreaterThan(scale * 0x1.0p-41);
      RandomGenerator random = Randomness.seeded(22);
      double[] samples = new double[N];
      for (int i = 0; i < N; i++) {
        samples[i] = noise.sample(random);
        assertThat(samples[i] / g).isEqualTo(Math.rint(samples[i] / g));
      }
      double ks =
          scaledKolmogorovSmirnov(
              samples,
              x -> x < 0 ? 0.5 * Math.exp(x / scale) : 1 - 0.5 * Math.exp(-x / scale));
      assertThat(ks).as("scale %s", scale).isLessThan(kolmogorovCriticalValue());
    }
  }

  @Test
  void snappedGaussianFitsTheNormalLawAndStaysOnItsLattice() {
    for (double sigma : new double[] {1.0, 0.01, 123.4}) {
      SnappedGaussian noise = SnappedGaussian.forSigma(sigma);
      double g = noise.grid().granularity();
      RandomGenerator random = Randomness.seeded(23);
      double[] samples = new double[20_000];
      for (int i = 0; i < samples.length; i++) {
        samples[i] = noise.sample(random);
        assertThat(samples[i] / g).isEqualTo(Math.rint(samples[i] / g));
      }
      double ks = scaledKolmogorovSmirnov(samples, x -> StandardNormal.cdf(x / sigma));
      assertThat(ks).as("sigma %s", sigma).isLessThan(kolmogorovCriticalValue());
    }
  }

  @Test
  void snappedNoiseAddedToAnInputIsCentredOnTheSnappedInput() {
    SnappedLaplace noise = SnappedLaplace.forScale(1.0);
    RandomGenerator random = Randomness.seeded(24);
    double sum = 0;
    for (int i = 0; i < N; i++) {
      sum += noise.addTo(random, 42.0) - 42.0;
    }
    assertThat(Math.abs(sum / N)).isLessThan(4.5 * Math.sqrt(2) / Math.sqrt(N));
  }
}
