package dev.tradeoff.learning.softmax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.learning.data.MulticlassData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoftmaxModelTest {

  @Test
  void predictsTheHighestScoringClassAndBreaksTiesTowardsTheLowestIndex() {
    // rows: class 0 → x₀, class 1 → x₁, class 2 → x₀ again (ties class 0)
    SoftmaxModel model = new SoftmaxModel(3, 2, new double[] {1, 0, 0, 1, 1, 0});
    assertThat(model.predict(new double[] {2, 1})).isEqualTo(0);
    assertThat(model.predict(new double[] {1, 2})).isEqualTo(1);
    assertThat(SoftmaxModel.zero(4, 3).predict(new double[] {1, 2, 3})).isEqualTo(0);
    assertThat(model.scores(new double[] {2, 1})).containsExactly(2, 1, 2);
  }

  @Test
  void probabilitiesAreTheSoftmaxOfTheScoresAndStableForHugeScores() {
    SplittableRandom random = new SplittableRandom(5);
    for (int trial = 0; trial < 100; trial++) {
      double[] w = SoftmaxLossTest.randomWeights(random, 8, 1);
      double[] x = {random.nextGaussian(), random.nextGaussian()};
      SoftmaxModel model = new SoftmaxModel(4, 2, w);
      double[] s = model.scores(x);
      double[] p = model.probabilities(x);
      double z = 0;
      for (double v : s) {
        z += Math.exp(v);
      }
      for (int c = 0; c < 4; c++) {
        assertThat(p[c]).isCloseTo(Math.exp(s[c]) / z, within(1e-14));
      }
    }
    double[] p = new SoftmaxModel(2, 1, new double[] {1e6, 0}).probabilities(new double[] {1});
    assertThat(p).containsExactly(1, 0);
  }

  @Test
  void weightsAreCopiedInAndOut() {
    double[] w = {1, 2, 3, 4};
    SoftmaxModel model = new SoftmaxModel(2, 2, w);
    w[0] = 9;
    model.weights()[1] = 9;
    assertThat(model.weights()).containsExactly(1, 2, 3, 4);
    assertThat(model).isEqualTo(new SoftmaxModel(2, 2, new double[] {1, 2, 3, 4}));
    assertThat(model.hashCode())
        .isEqualTo(new SoftmaxModel(2, 2, new double[] {1, 2, 3, 4}).hashCode());
  }

  @Test
  void accuracyCountsRowsWhosePredictionIsTheLabel() {
    SoftmaxModel model = new SoftmaxModel(2, 1, new double[] {1, -1});
    MulticlassData data =
        new MulticlassData(2, 1, new double[] {1, -1, 2, -3}, new int[] {0, 1, 1, 1});
    assertThat(model.predict(data)).containsExactly(0, 1, 0, 1);
    assertThat(model.accuracy(data)).isEqualTo(0.75);
  }

  @Test
  void survivesJavaSerialization() throws Exception {
    SoftmaxModel model = new SoftmaxModel(2, 2, new double[] {1, 2, 3, 4});
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(model);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(model);
    }
  }

  @Test
  void rejectsBadShapesAndValues() {
    assertThatThrownBy(() -> new SoftmaxModel(1, 2, new double[] {1, 2}))
        .hasMessage("classes must be >= 2, but was 1");
    assertThatThrownBy(() -> new SoftmaxModel(2, 2, new double[] {1, 2, 3}))
        .hasMessage("weights.length must equal classes * dimension = 4, but was 3");
    assertThatThrownBy(() -> new SoftmaxModel(2, 1, new double[] {1, Double.NaN}))
        .hasMessage("weights[1] must be finite, but was NaN");
    SoftmaxModel model = SoftmaxModel.zero(2, 2);
    assertThatThrownBy(() -> model.predict(new double[] {1}))
        .hasMessage("x.length must equal the dimension 2, but was 1");
    assertThatThrownBy(() -> model.predict(new double[] {1, Double.POSITIVE_INFINITY}))
        .hasMessage("x[1] must be finite, but was Infinity");
    assertThatThrownBy(() -> model.accuracy(new MulticlassData(3, 2, new double[0], new int[0])))
        .hasMessage("data.classes must equal the model's classes 2, but was 3");
  }
}
