package dev.tradeoff.learning.perturbation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.statistics.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;

class StabilityConstantsTest {

  @Test
  void referenceValues() {
    assertThat(StabilityConstants.trainingStability(1, 1000, 0.01)).isCloseTo(0.2, within(1e-15));
    // d ln(dk/δ) with d = 10, k = 5, δ = 0.05: 10 ln(1000)
    assertThat(StabilityConstants.noiseNormRadius(10, 5, 0.05))
        .isCloseTo(10 * Math.log(1000), within(1e-12));
    // (L/(mλ))(1 + 2 d ln(dk/δ)/(nα)) with L = 1, m = 100, λ = 0.1, n = 1000, α = 1
    double expected = (1 / (100 * 0.1)) * (1 + 2 * 10 * Math.log(1000) / 1000);
    assertThat(StabilityConstants.validationStability(1, 100, 0.1, 1000, 1, 10, 5, 0.05))
        .isGreaterThanOrEqualTo(expected)
        .isCloseTo(expected, within(1e-14));
  }

  @Test
  void noiseNormRadiusIsExceededWithProbabilityAtMostDeltaOverK() {
    // Chaudhuri et al. 2011, Lemma 4, checked against the exact Gamma(d, 1) survival function.
    for (int d : new int[] {1, 2, 5, 50, 785}) {
      for (int k : new int[] {1, 10}) {
        for (double delta : new double[] {0.5, 1e-3, 1e-9}) {
          double r = StabilityConstants.noiseNormRadius(d, k, delta);
          assertThat(GammaDistribution.of(d, 1).survivalProbability(r))
              .as("d=%d k=%d delta=%g", d, k, delta)
              .isLessThanOrEqualTo(delta / k);
        }
      }
    }
  }
}
