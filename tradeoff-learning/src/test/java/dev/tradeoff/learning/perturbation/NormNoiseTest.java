package dev.tradeoff.learning.perturbation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.statistics.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;

class NormNoiseTest {

  @Test
  void gammaNormRadiusMatchesLemmaFourAndIsRoundedUp() {
    // d ln(d/δ′) with d = 10, δ′ = 0.01: 10 ln(1000)
    assertThat(NormNoise.gammaNormRadius(10, 0.01)).isCloseTo(10 * Math.log(1000), within(1e-12))
        .isGreaterThanOrEqualTo(10 * Math.log(1000));
  }

  @Test
  void gammaNormRadiusIsExceededWithAtMostTheFailureProbability() {
    // Chaudhuri et al. 2011, Lemma 4, checked against the exact Gamma(d, 1) survival function.
    for (int d : new int[] {1, 2, 5, 50, 785}) {
      for (double failure : new double[] {0.5, 1e-3, 1e-10}) {
        double r = NormNoise.gammaNormRadius(d, failure);
        assertThat(GammaDistribution.of(d, 1).survivalProbability(r))
            .as("d=%d failure=%g", d, failure)
            .isLessThanOrEqualTo(failure);
      }
    }
  }

  @Test
  void badInputIsRejected() {
    assertThatThrownBy(() -> NormNoise.gammaNormRadius(0, 0.1)).hasMessageContaining("dimension");
    assertThatThrownBy(() -> NormNoise.gammaNormRadius(3, 1.0))
        .hasMessage("failureProbability must be in (0, 1), but was 1.0");
  }
}
