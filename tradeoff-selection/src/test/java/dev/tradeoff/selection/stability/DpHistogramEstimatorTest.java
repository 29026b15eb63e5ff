package dev.tradeoff.selection.stability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class DpHistogramEstimatorTest {

  @Test
  void countsPutEachPointInItsHalfOpenBinAndOneInTheLast() {
    long[] n = DpHistogramEstimator.counts(new double[] {0, 0.2, 0.25, 0.5, 0.999, 1.0}, 4);
    assertThat(n).containsExactly(2, 1, 1, 2);
  }

  @Test
  void noisyCountsAreClippedAtZeroAndNormalisedToADensity() {
    HistogramDensity f = DpHistogramEstimator.fromNoisyCounts(new double[] {3, -2, 1, 0});
    // ñ = (3, 0, 1, 0), n̂ = 4, h = 1/4: heights ñ_i/(h n̂) = (3, 0, 1, 0)
    assertThat(f.heights()).containsExactly(3, 0, 1, 0);
    assertThat(f.binWidth()).isEqualTo(0.25);
  }

  @Test
  void everythingClippedGivesTheUniformDensity() {
    HistogramDensity f = DpHistogramEstimator.fromNoisyCounts(new double[] {-1, -0.5, 0});
    assertThat(f.heights()).containsExactly(1, 1, 1);
  }

  @Test
  void validationScoreIsEquationSixOnAHandExample() {
    HistogramDensity f = new HistogramDensity(new double[] {1.5, 0.5});
    // ∫f̂² = (1.5² + 0.5²)/2 = 1.25; mean f̂(z) = (1.5 + 0.5 + 1.5)/3; q = −1.25 + 2·7/6
    assertThat(f.score(new double[] {0.1, 0.7, 0.2})).isCloseTo(-1.25 + 7.0 / 3, within(1e-15));
  }

  @Test
  void integratedSquaredErrorOfTheUniformAgainstBeta25IsNineElevenths() {
    // ‖1 − f‖² = ‖f‖² − 1 and ‖f‖² = 900·B(3, 9) = 20/11 for f = 30x(1−x)⁴
    BetaDensity beta = new BetaDensity(2, 5);
    assertThat(beta.squaredNorm()).isCloseTo(20.0 / 11, within(1e-13));
    HistogramDensity uniform = new HistogramDensity(new double[] {1, 1, 1, 1, 1});
    assertThat(uniform.integratedSquaredError(beta)).isCloseTo(9.0 / 11, within(1e-12));
  }

  @Test
  void exactBinMassHistogramHasOnlyTheBiasError() {
    // with heights P_i/h, ‖f̂ − f‖² = ‖f‖² − Σ P_i²/h (Pythagoras on the bin averages)
    BetaDensity beta = new BetaDensity(2, 5);
    int bins = 10;
    double[] heights = new double[bins];
    double sumSquares = 0;
    for (int i = 0; i < bins; i++) {
      double p = beta.mass(i / 10.0, (i + 1) / 10.0);
      heights[i] = p * bins;
      sumSquares += p * p * bins;
    }
    HistogramDensity f = new HistogramDensity(heights);
    assertThat(f.integratedSquaredError(beta))
        .isCloseTo(20.0 / 11 - sumSquares, within(1e-12));
  }

  @Test
  void validationScoreEstimatesTheNegatedErrorUpToTheConstantNormOfTheTruth() {
    // E q(f̂, V) = ‖f‖² − ‖f̂ − f‖² for V drawn from f (eq. 5–6)
    BetaDensity beta = new BetaDensity(2, 5);
    RandomGenerator random = Randomness.seeded(6);
    HistogramDensity f = DpHistogramEstimator.fit(beta.sample(5000, random), 20, 1, random);
    double q = f.score(beta.sample(400_000, random));
    // sd of q ≈ 2·sd(f̂(Z))/√m ≤ 2·3/√400000 ≈ 0.0095: 4 sd
    assertThat(q).isCloseTo(beta.squaredNorm() - f.integratedSquaredError(beta), within(0.04));
  }

  @Test
  void noiseHasTheLaplaceScaleTwoOverAlpha() {
    RandomGenerator random = Randomness.seeded(11);
    double alpha = 0.5;
    int draws = 20_000;
    double sumAbs = 0;
    for (int r = 0; r < draws; r++) {
      sumAbs += Math.abs(DpHistogramEstimator.noise(alpha).release(100.0, random) - 100);
    }
    // E|Laplace(b)| = b = 2/α = 4; sd of the mean = 4/√20000 ≈ 0.028: 5 sd
    assertThat(sumAbs / draws).isCloseTo(4, within(0.15));
    assertThat(DpHistogramEstimator.guarantee(alpha).epsilon()).isEqualTo(alpha);
  }

  @Test
  void badInputIsRefusedWithTheParameterName() {
    RandomGenerator random = Randomness.seeded(1);
    assertThatThrownBy(() -> DpHistogramEstimator.fit(new double[] {0.5, 1.5}, 5, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data[1]");
    assertThatThrownBy(() -> DpHistogramEstimator.fit(new double[] {Double.NaN}, 5, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data[0]");
    assertThatThrownBy(() -> DpHistogramEstimator.fit(new double[] {0.5}, 0, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bins");
    assertThatThrownBy(() -> DpHistogramEstimator.fit(new double[] {0.5}, 5, -1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon");
    assertThatThrownBy(() -> DpHistogramEstimator.fit(new double[0], 5, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data");
    assertThatThrownBy(() -> new HistogramDensity(new double[] {2, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("integrate to 1");
    assertThatThrownBy(() -> new BetaDensity(0.5, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a must be > 0.5");
  }
}
