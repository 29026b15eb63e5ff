package dev.tradeoff.learning.logistic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.learning.data.Dataset;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogisticLossTest {

  @Test
  void referenceValues() {
    assertThat(LogisticLoss.sigmoid(0)).isEqualTo(0.5);
    assertThat(LogisticLoss.softplus(0)).isCloseTo(Math.log(2), within(1e-16));
    // log(1 + e^−800) underflows to 0 only in its tail; softplus(800) is exactly 800.
    assertThat(LogisticLoss.softplus(800)).isEqualTo(800);
    assertThat(LogisticLoss.softplus(-800)).isEqualTo(0);
    assertThat(LogisticLoss.sigmoid(-800)).isEqualTo(0);
    assertThat(LogisticLoss.softplus(-40)).isCloseTo(Math.exp(-40), within(1e-30));
    // ℓ(w; x = 1, y = 1) at w = 2 is log(1 + e^−2)
    Dataset one = Dataset.of(new double[][] {{1}}, new int[] {1});
    assertThat(LogisticLoss.loss(new double[] {2}, one, 0))
        .isCloseTo(0.12692801104297249, within(3e-17));
  }

  @Test
  void gradientMatchesCentralFiniteDifferences() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 30; trial++) {
      int d = 1 + random.nextInt(5);
      Dataset data = LogisticRegressionTest.randomData(random, 10 + random.nextInt(20), d);
      double lambda = random.nextDouble();
      double[] w = new double[d];
      for (int j = 0; j < d; j++) {
        w[j] = random.nextGaussian() * 2;
      }
      double[] g = LogisticLoss.gradient(w, data, lambda);
      for (int j = 0; j < d; j++) {
        double h = 1e-5;
        double[] plus = w.clone();
        double[] minus = w.clone();
        plus[j] += h;
        minus[j] -= h;
        double numeric =
            (LogisticLoss.objective(plus, data, lambda) - LogisticLoss.objective(minus, data, lambda))
                / (2 * h);
        assertThat(g[j]).isCloseTo(numeric, within(1e-8));
      }
    }
  }

  @Test
  void perExampleGradientNormIsAtMostTheFeatureNorm() {
    SplittableRandom random = new SplittableRandom(9);
    Dataset data = LogisticRegressionTest.randomData(random, 100, 4);
    for (int i = 0; i < data.size(); i++) {
      double[] w = {random.nextGaussian() * 10, random.nextGaussian(), 0, 5};
      double[] g = LogisticLoss.exampleGradient(w, data, i);
      assertThat(Math.sqrt(LogisticLoss.squaredNorm(g)))
          .isLessThanOrEqualTo(data.rowNorm(i) * (1 + 1e-15));
    }
  }
}
