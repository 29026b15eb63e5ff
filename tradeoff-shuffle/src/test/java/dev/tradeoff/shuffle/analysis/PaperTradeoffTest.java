package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import org.junit.jupiter.api.Test;

class PaperTradeoffTest {

  private final PaperTradeoff paper = new PaperTradeoff(new ShuffleParameters(100, 58));

  @Test
  void theoremTwoReproducesTheQuotedValuesForHundredUsersAndLambdaFiftyEight() {
    double[] alphas = {0.01, 0.05, 0.1, 0.2, 0.5};
    double[] expected = {0.9726113565, 0.8888884353, 0.8393366712, 0.7053150924, 0.3653897631};
    for (int i = 0; i < alphas.length; i++) {
      assertThat(paper.beta(alphas[i])).as("alpha=%s", alphas[i])
          .isCloseTo(expected[i], within(1e-9));
    }
  }

  @Test
  void theoremTwoIsAStepFunctionConstantBetweenConsecutiveCdfValues() {
    CompoundBinomial c = paper.compoundBinomial();
    for (int k = 1; k < 60; k++) {
      double left = c.cdf(k - 1);
      double right = c.cdf(k);
      if (right > left) {
        double mid = 0.5 * (left + right);
        assertThat(paper.beta(mid)).isEqualTo(paper.beta(right));
        assertThat(paper.beta(right)).isEqualTo(c.survival(k + 1));
      }
    }
    assertThat(paper.beta(0)).isEqualTo(c.survival(1));
    assertThat(paper.beta(1)).isZero();
  }

  @Test
  void muStarIsTheSmallestMuWhoseGaussianCurveStaysBelowEveryCorner() {
    double mu = paper.mu();
    // Independent value (mpmath, 80 digits, then scipy quantiles of the small tail): k = 0.
    assertThat(mu).isCloseTo(0.4791989307842748, within(1e-9));
    CompoundBinomial c = paper.compoundBinomial();
    for (int k = 0; k <= 98; k++) {
      // G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), with 1 − α = P(C > k) taken from the tail.
      double f = c.survival(k + 1);
      double g = StandardNormal.cdf(upper(c, k) - mu);
      assertThat(g).as("k=%d", k).isLessThanOrEqualTo(f * (1 + 1e-9));
    }
    // Tight: slightly smaller μ violates some corner.
    double smaller = mu - 1e-6;
    boolean violated = false;
    for (int k = 0; k <= 98; k++) {
      double g = StandardNormal.cdf(upper(c, k) - smaller);
      violated |= g > c.survival(k + 1);
    }
    assertThat(violated).isTrue();
  }

  private static double upper(CompoundBinomial c, int k) {
    return c.cdf(k) < 0.5 ? StandardNormal.inverseSurvival(c.cdf(k))
        : StandardNormal.inverseCdf(c.survival(k));
  }

  @Test
  void corollaryThreeThreeScalesMuBySquareRootOfBits() {
    assertThat(paper.mu(10)).isCloseTo(Math.sqrt(10) * paper.mu(), within(1e-12));
  }
}
