package dev.tradeoff.learning.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PublicStatisticsTest {

  @Test
  void tracksNonEmptyCountsNumericColumnsMeansAndDeviations() {
    PublicStatistics stats = new PublicStatistics(3);
    stats.add(new String[] {"1", "a", ""});
    stats.add(new String[] {" 2 ", "3", "  "});
    stats.add(new String[] {"6"});
    assertThat(stats.rows()).isEqualTo(3);
    assertThat(stats.nonEmpty(0)).isEqualTo(3);
    assertThat(stats.nonEmpty(1)).isEqualTo(2);
    assertThat(stats.nonEmpty(2)).isZero();
    assertThat(stats.numeric(0)).isTrue();
    assertThat(stats.numeric(1)).isFalse();
    assertThat(stats.numeric(2)).isTrue();
    assertThat(stats.mean(0)).isEqualTo(3);
    assertThat(stats.standardDeviation(0)).isCloseTo(Math.sqrt(7), within(1e-15));
    assertThat(stats.mean(1)).isNaN();
    assertThat(stats.mean(2)).isNaN();
    assertThat(stats.standardDeviation(2)).isNaN();
  }

  @Test
  void nanAndInfinityCellsMakeAColumnNonNumeric() {
    PublicStatistics stats = new PublicStatistics(2);
    stats.add(new String[] {"1", "Infinity"});
    stats.add(new String[] {"NaN", "2"});
    assertThat(stats.numeric(0)).isFalse();
    assertThat(stats.numeric(1)).isFalse();
  }

  @Test
  void welfordIsStableForLargeOffsets() {
    // values 1e9 + k for k uniform: the textbook Σx² − n·mean² loses every digit here
    SplittableRandom random = new SplittableRandom(1);
    PublicStatistics stats = new PublicStatistics(1);
    double sum = 0;
    double[] ks = new double[10_000];
    for (int i = 0; i < ks.length; i++) {
      ks[i] = random.nextDouble();
      sum += ks[i];
      stats.add(new String[] {Double.toString(1e9 + ks[i])});
    }
    double mean = sum / ks.length;
    double squares = 0;
    for (double k : ks) {
      squares += (k - mean) * (k - mean);
    }
    assertThat(stats.mean(0)).isCloseTo(1e9 + mean, within(1e-6));
    assertThat(stats.standardDeviation(0))
        .isCloseTo(Math.sqrt(squares / (ks.length - 1)), within(1e-6));
  }

  @Test
  void rejectsBadWidthAndColumns() {
    assertThatThrownBy(() -> new PublicStatistics(0)).hasMessage("width must be >= 1, but was 0");
    assertThatThrownBy(() -> new PublicStatistics(2).mean(2))
        .hasMessage("column must be in [0, 1], but was 2");
  }
}
