package dev.tradeoff.learning.perturbation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticLoss;
import dev.tradeoff.learning.logistic.LogisticModel;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.stability.StabilityConstants;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OutputPerturbationStabilityTest {

  @Test
  void constantsAreTheoremFourForTheReleasedWeights() {
    OutputPerturbation op = OutputPerturbation.pure(1.0, 0.1);
    StabilityConstants c = OutputPerturbationStability.constants(op, 1, Double.POSITIVE_INFINITY,
        1000, 500, 3, 4, 1e-6);
    // β₁ = 2L/λ (+ 2Lτn for the certified solver tolerance τ = 1e-8)
    assertThat(c.beta1()).isCloseTo(2 / 0.1, within(1e-4)).isGreaterThanOrEqualTo(20);
    // β₂ = (L/λ)(1 + 2d ln(dk/δ)/(nα))
    double expected = (1 / 0.1) * (1 + 2 * 3 * Math.log(3 * 4 / 1e-6) / (1000 * 1.0));
    assertThat(c.beta2()).isGreaterThanOrEqualTo(expected).isCloseTo(expected, within(1e-4));
    assertThat(c.delta()).isEqualTo(1e-6);
    StabilityConstants capped = OutputPerturbationStability.constants(op, 1, 5, 1000, 500, 3, 4,
        1e-6);
    assertThat(capped.beta2()).isEqualTo(5);
  }

  @Test
  void withTheNoiseFixedOneTrainingRecordMovesTheValidationLossByAtMostBetaOneOverN() {
    SplittableRandom random = new SplittableRandom(8);
    int n = 200;
    int d = 3;
    double[][] rows = new double[n][];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = unitBallPoint(random, d);
      labels[i] = rows[i][0] + 0.3 * random.nextGaussian() > 0 ? 1 : 0;
    }
    double[][] validationRows = new double[100][];
    int[] validationLabels = new int[100];
    for (int i = 0; i < 100; i++) {
      validationRows[i] = unitBallPoint(random, d);
      validationLabels[i] = validationRows[i][0] > 0 ? 1 : 0;
    }
    Dataset validation = Dataset.of(validationRows, validationLabels);
    for (double lambda : new double[] {0.05, 0.5}) {
      OutputPerturbation op = OutputPerturbation.pure(1.0, lambda);
      StabilityConstants c = OutputPerturbationStability.constants(op, 1,
          Double.POSITIVE_INFINITY, n, 100, d, 2, 1e-6);
      for (int trial = 0; trial < 5; trial++) {
        double[][] neighbour = rows.clone();
        int[] neighbourLabels = labels.clone();
        int who = random.nextInt(n);
        neighbour[who] = unitBallPoint(random, d);
        neighbourLabels[who] = 1 - labels[who];
        long seed = random.nextLong();
        LogisticModel w = op.train(Dataset.of(rows, labels), Randomness.seeded(seed)).model();
        LogisticModel v =
            op.train(Dataset.of(neighbour, neighbourLabels), Randomness.seeded(seed)).model();
        double diff = Math.abs(meanLoss(w, validation) - meanLoss(v, validation));
        assertThat(diff).isLessThanOrEqualTo(c.beta1() / n);
      }
    }
  }

  @Test
  void onlyThePureAlgorithmFourVariantIsAccepted() {
    assertThatThrownBy(() -> OutputPerturbationStability.constants(
            OutputPerturbation.gaussian(1, 1e-5, 0.1), 1, 1, 100, 100, 2, 2, 1e-6))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pure");
    assertThatThrownBy(() -> OutputPerturbationStability.constants(
            OutputPerturbation.pure(1, 0.1), 0, 1, 100, 100, 2, 2, 1e-6))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lipschitz");
  }

  private static double meanLoss(LogisticModel w, Dataset data) {
    double s = 0;
    for (int i = 0; i < data.size(); i++) {
      s += LogisticLoss.loss(w.weights(), data, i);
    }
    return s / data.size();
  }

  private static double[] unitBallPoint(SplittableRandom random, int d) {
    double[] x = new double[d];
    double norm = 0;
    for (int j = 0; j < d; j++) {
      x[j] = random.nextGaussian();
      norm += x[j] * x[j];
    }
    double scale = random.nextDouble() / Math.sqrt(norm);
    for (int j = 0; j < d; j++) {
      x[j] *= scale;
    }
    return x;
  }
}
