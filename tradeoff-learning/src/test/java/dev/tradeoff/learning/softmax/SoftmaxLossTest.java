package dev.tradeoff.learning.softmax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.learning.data.MulticlassData;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoftmaxLossTest {

  static MulticlassData randomData(SplittableRandom random, int n, int classes, int d) {
    double[] features = new double[n * d];
    int[] labels = new int[n];
    for (int k = 0; k < features.length; k++) {
      features[k] = random.nextGaussian() * Math.exp(2 * random.nextGaussian());
    }
    for (int i = 0; i < n; i++) {
      labels[i] = random.nextInt(classes);
    }
    return new MulticlassData(classes, d, features, labels);
  }

  static double[] randomWeights(SplittableRandom random, int size, double scale) {
    double[] w = new double[size];
    for (int k = 0; k < size; k++) {
      w[k] = random.nextGaussian() * scale;
    }
    return w;
  }

  @Test
  void objectiveAtZeroWeightsIsLogOfTheClassCount() {
    SplittableRandom random = new SplittableRandom(1);
    MulticlassData data = randomData(random, 20, 7, 3);
    assertThat(SoftmaxLoss.objective(new double[21], data, 0.3))
        .isCloseTo(Math.log(7), within(1e-14));
  }

  @Test
  void gradientMatchesCentralFiniteDifferencesOfTheRegularisedObjective() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 30; trial++) {
      int classes = 2 + random.nextInt(5);
      int d = 1 + random.nextInt(5);
      MulticlassData data = randomData(random, 5 + random.nextInt(20), classes, d);
      double lambda = random.nextDouble();
      double[] w = randomWeights(random, classes * d, 0.5);
      double[] g = SoftmaxLoss.gradient(w, data, lambda);
      for (int k = 0; k < w.length; k++) {
        double h = 1e-6;
        double[] plus = w.clone();
        double[] minus = w.clone();
        plus[k] += h;
        minus[k] -= h;
        double numeric =
            (SoftmaxLoss.objective(plus, data, lambda) - SoftmaxLoss.objective(minus, data, lambda))
                / (2 * h);
        assertThat(g[k]).isCloseTo(numeric, within(1e-5 * (1 + Math.abs(numeric))));
      }
    }
  }

  @Test
  void gradientIsTheMeanOfExampleGradientsPlusTheRegulariser() {
    SplittableRandom random = new SplittableRandom(3);
    MulticlassData data = randomData(random, 12, 4, 3);
    double[] w = randomWeights(random, 12, 1);
    double[] expected = new double[12];
    for (int i = 0; i < data.size(); i++) {
      double[] gi = SoftmaxLoss.exampleGradient(w, data, i);
      for (int k = 0; k < 12; k++) {
        expected[k] += gi[k] / data.size();
      }
    }
    for (int k = 0; k < 12; k++) {
      expected[k] += 0.2 * w[k];
    }
    assertThat(SoftmaxLoss.gradient(w, data, 0.2)).containsExactly(expected, within(1e-12));
  }

  @Test
  void hugeScoresDoNotOverflow() {
    MulticlassData data = new MulticlassData(3, 1, new double[] {1}, new int[] {0});
    // scores (1000, 0, −1000): ℓ = log(1 + e^−1000 + e^−2000) ≈ 0; label 1 would cost 1000
    double[] w = {1000, 0, -1000};
    assertThat(SoftmaxLoss.objective(w, data, 0)).isEqualTo(0);
    MulticlassData wrong = new MulticlassData(3, 1, new double[] {1}, new int[] {1});
    assertThat(SoftmaxLoss.objective(w, wrong, 0)).isEqualTo(1000);
    assertThat(SoftmaxLoss.gradient(w, wrong, 0)).containsExactly(1, -1, 0);
  }

  @Test
  void zeroRowsLeaveOnlyTheRegulariser() {
    MulticlassData empty = new MulticlassData(2, 2, new double[0], new int[0]);
    double[] w = {1, 2, 3, 4};
    assertThat(SoftmaxLoss.objective(w, empty, 0.5)).isEqualTo(0.25 * 30);
    assertThat(SoftmaxLoss.gradient(w, empty, 0.5)).containsExactly(0.5, 1, 1.5, 2);
  }
}
