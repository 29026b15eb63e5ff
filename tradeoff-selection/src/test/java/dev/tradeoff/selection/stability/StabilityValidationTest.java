package dev.tradeoff.selection.stability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.mechanisms.random.Randomness;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class StabilityValidationTest {

  /**
   * Pr[i* = i] for argmax s_j + Z_j, Z_j ~ Exp(λ): substituting u = e^{−λ z_i} gives
   * ∫_0^1 Π_{j≠i} max(0, 1 − u e^{−λ(s_i − s_j)}) du, a polynomial up to the first zero; composite
   * Simpson with 4000 panels is exact to ~1e-15 for the degrees used here.
   */
  static double probability(double[] s, int i, double rate) {
    double end = 1;
    for (int j = 0; j < s.length; j++) {
      if (j != i) {
        end = Math.min(end, Math.exp(rate * (s[i] - s[j])));
      }
    }
    int panels = 4000;
    double h = end / panels;
    double sum = 0;
    for (int p = 0; p <= panels; p++) {
      double u = p * h;
      double prod = 1;
      for (int j = 0; j < s.length; j++) {
        if (j != i) {
          prod *= Math.max(0, 1 - u * Math.exp(-rate * (s[i] - s[j])));
        }
      }
      double weight = p == 0 || p == panels ? 1 : (p % 2 == 1 ? 4 : 2);
      sum += weight * prod;
    }
    return sum * h / 3;
  }

  @Test
  void exactSelectionProbabilitiesSumToOne() {
    double[] s = {0.3, 0.1, 0.25, -0.2};
    double total = 0;
    for (int i = 0; i < s.length; i++) {
      total += probability(s, i, 7);
    }
    assertThat(total).isCloseTo(1, within(1e-12));
  }

  @Test
  void theoremOneNoOutputProbabilityMovesByMoreThanEToTheAlphaTwo() {
    SplittableRandom random = new SplittableRandom(42);
    double worst = 0;
    for (int trial = 0; trial < 400; trial++) {
      int k = 2 + random.nextInt(4);
      double beta = 0.01 + random.nextDouble() * 0.1;
      double alpha2 = 0.1 + random.nextDouble() * 2;
      double rate = StabilityValidation.noiseRate(beta, alpha2);
      double[] s = new double[k];
      double[] t = new double[k];
      int target = random.nextInt(k);
      boolean adversarial = random.nextBoolean();
      for (int j = 0; j < k; j++) {
        s[j] = random.nextDouble() * 0.5;
        double move = adversarial ? (j == target ? -beta : beta) : (2 * random.nextDouble() - 1) * beta;
        t[j] = s[j] + move; // every score moves by at most β: every gap by at most 2β
      }
      for (int i = 0; i < k; i++) {
        double ratio = probability(s, i, rate) / probability(t, i, rate);
        assertThat(ratio).isLessThanOrEqualTo(Math.exp(alpha2) * (1 + 1e-9));
        worst = Math.max(worst, Math.log(ratio) / alpha2);
      }
    }
    assertThat(worst).isGreaterThan(0.9); // the adversarial shifts come close to e^{α₂}
  }

  @Test
  void samplerFollowsTheExactSelectionLaw() {
    double[] s = {0.30, 0.25, 0.10, 0.28};
    double beta = 0.02;
    double alpha2 = 1;
    double rate = StabilityValidation.noiseRate(beta, alpha2);
    RandomGenerator random = Randomness.seeded(9);
    int draws = 60_000;
    int[] hits = new int[s.length];
    for (int d = 0; d < draws; d++) {
      hits[StabilityValidation.select(s, beta, alpha2, random)]++;
    }
    for (int i = 0; i < s.length; i++) {
      double p = probability(s, i, rate);
      double sd = Math.sqrt(p * (1 - p) / draws);
      assertThat(hits[i] / (double) draws).isCloseTo(p, within(5 * sd + 1e-4));
    }
  }

  @Test
  void theoremThreeGapIsTwoBetaLogKOverDeltaZeroOverAlphaTwoAndHoldsEmpirically() {
    assertThat(StabilityValidation.utilityGap(0.1, 5, 1, 0.05))
        .isCloseTo(0.2 * Math.log(100), within(1e-15));
    double[] s = {0.0, -0.05, -0.1, -0.2, -0.3};
    double beta = 0.01;
    double alpha2 = 0.5;
    double gap = StabilityValidation.utilityGap(beta, s.length, alpha2, 0.1);
    RandomGenerator random = Randomness.seeded(10);
    int bad = 0;
    int draws = 20_000;
    for (int d = 0; d < draws; d++) {
      if (s[StabilityValidation.select(s, beta, alpha2, random)] < s[0] - gap) {
        bad++;
      }
    }
    assertThat(bad / (double) draws).isLessThanOrEqualTo(0.1);
  }

  @Test
  void guaranteeIsAlphaTwoDeltaAndTheNoiseRateRoundsTowardsMoreNoise() {
    StabilityConstants c = new StabilityConstants(400, 200, 1e-6);
    assertThat(StabilityValidation.guarantee(0.5, c).epsilon()).isEqualTo(0.5);
    assertThat(StabilityValidation.guarantee(0.5, c).delta()).isEqualTo(1e-6);
    assertThat(StabilityValidation.noiseRate(0.1, 0.3)).isLessThan(0.3 / 0.2);
    assertThat(c.beta(10_000, 10_000)).isGreaterThanOrEqualTo(0.04);
  }

  @Test
  void badInputIsRefused() {
    RandomGenerator random = Randomness.seeded(1);
    assertThatThrownBy(() -> StabilityValidation.select(new double[0], 0.1, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scores");
    assertThatThrownBy(() -> StabilityValidation.select(new double[] {Double.NaN}, 0.1, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scores[0]");
    assertThatThrownBy(() -> StabilityValidation.select(new double[] {1}, 0, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("beta");
    assertThatThrownBy(() -> StabilityValidation.select(new double[] {1}, 0.1, -1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha2");
    assertThatThrownBy(() -> new StabilityConstants(-1, 1, 0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("beta1");
    assertThatThrownBy(() -> new StabilityConstants(1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta");
  }
}
