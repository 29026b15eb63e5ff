package dev.tradeoff.learning.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.mechanisms.random.Randomness;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DatasetTest {

  @Test
  void biasUnitNormMapsEveryRowOntoTheUnitSphereKeepingDirections() {
    SplittableRandom random = new SplittableRandom(1);
    double[][] rows = new double[50][];
    int[] labels = new int[50];
    for (int i = 0; i < 50; i++) {
      rows[i] = new double[] {random.nextGaussian() * 10, random.nextDouble(), 0};
      labels[i] = i % 2;
    }
    Dataset data = Dataset.of(rows, labels);
    Dataset mapped = data.withBiasUnitNorm(2);
    assertThat(mapped.dimension()).isEqualTo(4);
    for (int i = 0; i < 50; i++) {
      assertThat(mapped.rowNorm(i)).isCloseTo(1, within(1e-15));
      double scale = mapped.feature(i, 3) / 2;
      for (int j = 0; j < 3; j++) {
        assertThat(mapped.feature(i, j)).isCloseTo(rows[i][j] * scale, within(1e-15));
      }
      assertThat(mapped.label(i)).isEqualTo(labels[i]);
    }
  }

  @Test
  void shuffleIsAPermutationReproducibleFromTheSeed() {
    double[][] rows = new double[30][];
    int[] labels = new int[30];
    for (int i = 0; i < 30; i++) {
      rows[i] = new double[] {i};
      labels[i] = i % 2;
    }
    Dataset data = Dataset.of(rows, labels);
    Dataset a = data.shuffled(Randomness.seeded(9));
    Dataset b = data.shuffled(Randomness.seeded(9));
    double[] ids = new double[30];
    for (int i = 0; i < 30; i++) {
      ids[i] = a.feature(i, 0);
      assertThat(b.feature(i, 0)).isEqualTo(ids[i]);
      assertThat(a.label(i)).isEqualTo((int) ids[i] % 2);
    }
    Arrays.sort(ids);
    for (int i = 0; i < 30; i++) {
      assertThat(ids[i]).isEqualTo(i);
    }
  }

  @Test
  void rejectsMalformedInput() {
    assertThatThrownBy(() -> Dataset.of(new double[][] {{1}, {1, 2}}, new int[] {0, 1}))
        .hasMessage("rows[1].length must equal 1, but was 2");
    assertThatThrownBy(() -> Dataset.of(new double[][] {{1}}, new int[] {2}))
        .hasMessage("labels[0] must be in [0, 1], but was 2");
    assertThatThrownBy(() -> Dataset.of(new double[][] {{Double.NaN}}, new int[] {0}))
        .hasMessage("rows[0][0] must be finite, but was NaN");
    assertThatThrownBy(() -> Dataset.of(new double[][] {{1}}, new int[] {0, 1}))
        .hasMessage("labels.length must equal rows.length 1, but was 2");
    Dataset one = Dataset.of(new double[][] {{1}}, new int[] {0});
    assertThatThrownBy(() -> one.slice(0, 2)).hasMessage("to must be in [1, 1], but was 2");
  }
}
