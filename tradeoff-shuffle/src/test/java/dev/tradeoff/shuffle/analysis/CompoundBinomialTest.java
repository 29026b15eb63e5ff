package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import org.junit.jupiter.api.Test;

class CompoundBinomialTest {

  @Test
  void definitionEqualsBinomialWithHalfTheRandomizationRate() {
    int[][] cases = {{2, 1}, {10, 3}, {100, 58}, {100, 1}, {250, 249}, {1000, 58}};
    for (int[] c : cases) {
      CompoundBinomial cb = new CompoundBinomial(new ShuffleParameters(c[0], c[1]));
      for (int k = 0; k <= c[0]; k++) {
        double byDefinition = Math.exp(cb.logPmfByDefinition(k));
        double closedForm = Math.exp(cb.logPmf(k));
        assertThat(byDefinition).as("n=%d λ=%d k=%d", c[0], c[1], k)
            .isCloseTo(closedForm, within(1e-12));
      }
    }
  }

  @Test
  void definitionEqualsBinomialForNonIntegerLambdaInRelativeTerms() {
    CompoundBinomial cb = new CompoundBinomial(new ShuffleParameters(300, 17.5));
    for (int k = 0; k <= 60; k++) {
      assertThat(cb.logPmfByDefinition(k)).isCloseTo(cb.logPmf(k), within(1e-9));
    }
  }

  @Test
  void cdfAndSurvivalAreComplementaryAndMonotone() {
    CompoundBinomial cb = new CompoundBinomial(new ShuffleParameters(100, 58));
    double previous = 0;
    for (int k = 0; k <= 100; k++) {
      assertThat(cb.cdf(k) + cb.survival(k)).isCloseTo(1, within(1e-14));
      assertThat(cb.cdf(k)).isGreaterThanOrEqualTo(previous);
      previous = cb.cdf(k);
    }
    assertThat(cb.cdf(-1)).isZero();
    assertThat(cb.survival(100)).isZero();
  }

  @Test
  void quantileIsTheSmallestKWhoseCdfReachesAlpha() {
    CompoundBinomial cb = new CompoundBinomial(new ShuffleParameters(100, 58));
    assertThat(cb.quantile(0)).isZero();
    assertThat(cb.quantile(1)).isEqualTo(100);
    for (double alpha : new double[] {1e-9, 0.01, 0.05, 0.2, 0.5, 0.9, 0.999}) {
      int k = cb.quantile(alpha);
      assertThat(cb.cdf(k)).isGreaterThanOrEqualTo(alpha);
      assertThat(cb.cdf(k - 1)).isLessThan(alpha);
    }
    assertThat(cb.quantile(cb.cdf(25))).isEqualTo(25);
  }
}
