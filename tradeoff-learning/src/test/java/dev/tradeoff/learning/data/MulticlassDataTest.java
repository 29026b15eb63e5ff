package dev.tradeoff.learning.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MulticlassDataTest {

  @Test
  void scoresAndOuterProductsReadRowsInPlace() {
    MulticlassData data = new MulticlassData(3, 2, new double[] {1, 2, 3, 4}, new int[] {2, 0});
    double[] scores = new double[3];
    data.scores(1, new double[] {1, 0, 0, 1, 1, 1}, scores);
    assertThat(scores).containsExactly(3, 4, 7);
    double[] acc = new double[6];
    data.addOuterProduct(0, new double[] {1, 0, -2}, acc);
    assertThat(acc).containsExactly(1, 2, 0, 0, -2, -4);
    assertThat(data.rowNorm(1)).isEqualTo(5);
    assertThat(data.row(1)).containsExactly(3, 4);
    assertThat(data.label(0)).isEqualTo(2);
  }

  @Test
  void mayBeEmptyAndCopiesItsInputs() {
    assertThat(new MulticlassData(2, 5, new double[0], new int[0]).size()).isZero();
    double[] features = {1, 2};
    int[] labels = {1};
    MulticlassData data = new MulticlassData(2, 2, features, labels);
    features[0] = 9;
    labels[0] = 0;
    assertThat(data.row(0)).containsExactly(1, 2);
    assertThat(data.label(0)).isEqualTo(1);
  }

  @Test
  void rejectsLabelsOutsideTheClassesAndBadShapes() {
    assertThatThrownBy(() -> new MulticlassData(3, 1, new double[] {1}, new int[] {3}))
        .hasMessage("labels[0] must be in [0, 2], but was 3");
    assertThatThrownBy(() -> new MulticlassData(1, 1, new double[0], new int[0]))
        .hasMessage("classes must be >= 2, but was 1");
    assertThatThrownBy(() -> new MulticlassData(2, 2, new double[3], new int[] {0, 1}))
        .hasMessage("features.length must equal labels.length * dimension = 4, but was 3");
    assertThatThrownBy(() -> new MulticlassData(2, 1, new double[] {Double.NaN}, new int[] {0}))
        .hasMessage("features[0] must be finite, but was NaN");
  }
}
