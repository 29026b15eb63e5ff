package dev.tradeoff.learning.softmax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.learning.data.MulticlassData;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoftmaxRegressionTest {

  @Test
  void fitsSeparableFiveClassBlobsAndBeatsTheMajorityClass() {
    MulticlassData train = Blobs.of(5, 11, 5000, 0.8, 1, 2);
    MulticlassData test = Blobs.of(5, 11, 5000, 0.8, 1, 3);
    SoftmaxModel model = new SoftmaxRegression(1e-3).fit(train);
    double accuracy = model.accuracy(test);
    assertThat(accuracy).isGreaterThan(0.9);
    assertThat(accuracy).isGreaterThan(Blobs.majorityFraction(test) + 0.3);
  }

  @Test
  void stopsWithASmallGradient() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 10; trial++) {
      MulticlassData data =
          SoftmaxLossTest.randomData(random, 50 + random.nextInt(200), 2 + random.nextInt(4),
              1 + random.nextInt(6));
      double lambda = 0.01 + random.nextDouble();
      SoftmaxModel model = new SoftmaxRegression(lambda, 1e-7, 1000).fit(data);
      double[] g = SoftmaxLoss.gradient(model.weights(), data, lambda);
      double norm = 0;
      for (double v : g) {
        norm += v * v;
      }
      assertThat(Math.sqrt(norm)).isLessThanOrEqualTo(1e-7);
    }
  }

  @Test
  void sameDataGivesTheSameModel() {
    MulticlassData data = Blobs.of(4, 6, 500, 1, 4, 5);
    assertThat(new SoftmaxRegression(0.01).fit(data))
        .isEqualTo(new SoftmaxRegression(0.01).fit(data));
  }

  @Test
  void zeroRowsGiveTheZeroModel() {
    MulticlassData empty = new MulticlassData(3, 4, new double[0], new int[0]);
    assertThat(new SoftmaxRegression(0.1).fit(empty)).isEqualTo(SoftmaxModel.zero(3, 4));
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new SoftmaxRegression(0))
        .hasMessage("lambda must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new SoftmaxRegression(1, -1, 10))
        .hasMessage("tolerance must be > 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new SoftmaxRegression(1, 1e-6, 0))
        .hasMessage("maxIterations must be >= 1, but was 0");
  }
}
