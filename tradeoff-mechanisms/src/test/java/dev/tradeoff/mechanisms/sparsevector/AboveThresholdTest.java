package dev.tradeoff.mechanisms.sparsevector;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.binomialZ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class AboveThresholdTest {

  /** Pr[q + ν ≥ T + ρ] for ν ~ Lap(bν), ρ ~ Lap(bρ), by Simpson's rule over ρ. */
  static double probabilityAbove(double q, double t, double bNu, double bRho) {
    double lo = -80 * bRho;
    double hi = 80 * bRho;
    int steps = 200_000;
    double h = (hi - lo) / steps;
    double sum = 0;
    for (int s = 0; s <= steps; s++) {
      double r = lo + s * h;
      double w = (s == 0 || s == steps) ? 1 : (s % 2 == 1 ? 4 : 2);
      double density = Math.exp(-Math.abs(r) / bRho) / (2 * bRho);
      double z = t + r - q; // need ν ≥ z
      double survival = z < 0 ? 1 - 0.5 * Math.exp(z / bNu) : 0.5 * Math.exp(-z / bNu);
      sum += w * density * survival;
    }
    return sum * h / 3;
  }

  @Test
  void firstAnswerFollowsTheLaplaceComparisonLaw() {
    double eps = 1.0;
    AboveThreshold m = AboveThreshold.builder().epsilon(eps).threshold(5).build();
    // c = 1: ρ ~ Lap(2/ε), ν ~ Lap(4/ε)
    double p = probabilityAbove(4, 5, 4 / eps, 2 / eps);
    RandomGenerator random = Randomness.seeded(95);
    int n = 40_000;
    long above = 0;
    for (int i = 0; i < n; i++) {
      above += m.release(new double[] {4}, random).get(0) ? 1 : 0;
    }
    assertThat(binomialZ(above, n, p)).isLessThan(4.5);
  }

  @Test
  void monotoneQueriesUseHalfTheQueryNoise() {
    AboveThreshold m = AboveThreshold.builder().epsilon(1).threshold(0).monotone(true).build();
    double p = probabilityAbove(-1, 0, 2, 2);
    RandomGenerator random = Randomness.seeded(96);
    int n = 40_000;
    long above = 0;
    for (int i = 0; i < n; i++) {
      above += m.release(new double[] {-1}, random).get(0) ? 1 : 0;
    }
    assertThat(binomialZ(above, n, p)).isLessThan(4.5);
  }

  @Test
  void stopsAfterTheCthAboveAnswer() {
    AboveThreshold m = AboveThreshold.builder().epsilon(1).threshold(0).maxAbove(2).build();
    RandomGenerator random = Randomness.seeded(97);
    List<Boolean> answers = m.release(new double[] {-1e6, 1e6, -1e6, 1e6, 1e6}, random);
    assertThat(answers).containsExactly(false, true, false, true);
    List<Boolean> none = m.release(new double[] {-1e6, -1e6}, random);
    assertThat(none).containsExactly(false, false);
  }

  @Test
  void statesPureDpAndRejectsBadInput() {
    assertThat(AboveThreshold.builder().epsilon(0.5).threshold(1).build().guarantee())
        .isEqualTo(new PureDp(0.5));
    assertThatThrownBy(() -> AboveThreshold.builder().epsilon(1).build())
        .hasMessage("threshold must be finite, but was NaN");
    assertThatThrownBy(() -> AboveThreshold.builder().epsilon(1).threshold(0).maxAbove(0).build())
        .hasMessage("maxAbove must be >= 1, but was 0");
    AboveThreshold m = AboveThreshold.builder().epsilon(1).threshold(0).build();
    assertThatThrownBy(() -> m.release(new double[] {1, Double.NaN}, Randomness.seeded(1)))
        .hasMessage("queries[1] must be finite, but was NaN");
    assertThatThrownBy(() -> m.release(new double[0], Randomness.seeded(1)))
        .hasMessage("queries must not be empty");
  }
}
