package dev.tradeoff.learning.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FeatureMapTest {

  private static final List<String> NAMES = List.of("small", "large", "city", "age");
  private static final int[] COLUMNS = {0, 1, 2, 3};

  /** A public table: a column around 1e−2, one around 1e4, a string column, a numeric one. */
  private static PublicStatistics publicStatistics(SplittableRandom random, int rows) {
    PublicStatistics stats = new PublicStatistics(4);
    String[] cities = {"Paris", "Lyon", "Nice"};
    for (int i = 0; i < rows; i++) {
      stats.add(row(random, cities[random.nextInt(3)]));
    }
    return stats;
  }

  private static String[] row(SplittableRandom random, String city) {
    return new String[] {
      Double.toString(0.01 + 0.003 * random.nextGaussian()),
      Double.toString(1e4 + 2e3 * random.nextGaussian()),
      city,
      Integer.toString(18 + random.nextInt(70))
    };
  }

  @Test
  void fromPublicHashesStringColumnsAndStandardisesNumericOnes() {
    PublicStatistics stats = publicStatistics(new SplittableRandom(1), 500);
    FeatureMap map =
        FeatureMap.fromPublic(stats, NAMES, COLUMNS, Map.of(), Set.of(), 8, 4);
    assertThat(map.encoders().get(0)).isInstanceOf(ColumnEncoder.Numeric.class);
    assertThat(map.encoders().get(1)).isInstanceOf(ColumnEncoder.Numeric.class);
    assertThat(map.encoders().get(2)).isEqualTo(new ColumnEncoder.Hashed("city", 2, 8));
    assertThat(map.encoders().get(3)).isInstanceOf(ColumnEncoder.Numeric.class);
    ColumnEncoder.Numeric large = (ColumnEncoder.Numeric) map.encoders().get(1);
    assertThat(large.center()).isEqualTo(stats.mean(1));
    assertThat(large.scale()).isEqualTo(stats.standardDeviation(1));
    assertThat(map.dimension()).isEqualTo(2 + 2 + 9 + 2 + 1);
    assertThat(map.describe()).hasSize(4);
  }

  @Test
  void mixedScaleColumnsEndUpOrderOne() {
    FeatureMap map = FeatureMap.fromPublic(
        publicStatistics(new SplittableRandom(2), 1000), NAMES, COLUMNS, Map.of(), Set.of(), 8, 4);
    SplittableRandom random = new SplittableRandom(3);
    double[] sumOfSquares = new double[map.dimension()];
    int n = 2000;
    for (int i = 0; i < n; i++) {
      double[] x = map.encode(row(random, "Lyon"));
      for (int j = 0; j < x.length; j++) {
        assertThat(Math.abs(x[j])).isLessThanOrEqualTo(4);
        sumOfSquares[j] += x[j] * x[j] / n;
      }
      assertThat(x[x.length - 1]).isEqualTo(1);
    }
    // the standardised columns have second moment ≈ 1 whatever their raw scale
    assertThat(sumOfSquares[0]).isCloseTo(1, within(0.15));
    assertThat(sumOfSquares[2]).isCloseTo(1, within(0.15));
    assertThat(sumOfSquares[13]).isCloseTo(1, within(0.15));
  }

  @Test
  void missingAndBadCellsSetIndicatorsAndNeverThrow() {
    FeatureMap map = FeatureMap.fromPublic(
        publicStatistics(new SplittableRandom(4), 100), NAMES, COLUMNS, Map.of(), Set.of(), 4, 3);
    double[] x = map.encode(new String[] {"", "NaN", " ", "Infinity"});
    assertThat(x).containsExactly(0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1);
    double[] shortRow = map.encode(new String[] {"oops"});
    assertThat(shortRow).containsExactly(0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1);
    assertThat(map.encode(new String[] {null, "-1e400", null, "1e400"}))
        .containsExactly(0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1);
  }

  @Test
  void userRangesOverrideAndForcedCategoricalColumnsAreHashed() {
    FeatureMap map = FeatureMap.fromPublic(
        publicStatistics(new SplittableRandom(5), 100), NAMES, COLUMNS,
        Map.of("large", new FeatureMap.Range(0, 2e4), "city", new FeatureMap.Range(0, 1)),
        Set.of("age"), 4, 3);
    assertThat(map.encoders().get(1)).isEqualTo(new ColumnEncoder.Ranged("large", 1, 0, 2e4));
    // a user range wins even over a string column: its cells then read as missing
    assertThat(map.encoders().get(2)).isEqualTo(new ColumnEncoder.Ranged("city", 2, 0, 1));
    assertThat(map.encoders().get(3)).isEqualTo(new ColumnEncoder.Hashed("age", 3, 4));
  }

  @Test
  void aColumnWithOneOrNoPublicValueGetsScaleOne() {
    PublicStatistics stats = new PublicStatistics(2);
    stats.add(new String[] {"5", ""});
    FeatureMap map = FeatureMap.fromPublic(
        stats, List.of("a", "b"), new int[] {0, 1}, Map.of(), Set.of(), 4, 3);
    assertThat(map.encoders())
        .containsExactly(
            new ColumnEncoder.Numeric("a", 0, 5, 1, 3), new ColumnEncoder.Numeric("b", 1, 0, 1, 3));
  }

  @Test
  void survivesJavaSerialization() throws Exception {
    FeatureMap map = FeatureMap.fromPublic(
        publicStatistics(new SplittableRandom(6), 50), NAMES, COLUMNS,
        Map.of("age", new FeatureMap.Range(0, 120)), Set.of(), 16, 4);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(map);
    }
    FeatureMap copy;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (FeatureMap) in.readObject();
    }
    assertThat(copy).isEqualTo(map);
    String[] cells = {"0.02", "9000", "Nice", "40"};
    assertThat(copy.encode(cells)).containsExactly(map.encode(cells));
  }

  @Test
  void encodersAreCopiedAndNamesMustBeDistinct() {
    List<ColumnEncoder> encoders = new ArrayList<>();
    encoders.add(new ColumnEncoder.Hashed("a", 0, 2));
    FeatureMap map = new FeatureMap(encoders);
    encoders.add(new ColumnEncoder.Hashed("b", 1, 2));
    assertThat(map.encoders()).hasSize(1);
    assertThatThrownBy(() -> new FeatureMap(
            List.of(new ColumnEncoder.Hashed("a", 0, 2), new ColumnEncoder.Ranged("a", 1, 0, 1))))
        .hasMessage("encoders[1].name must be distinct, but was a");
  }

  @Test
  void fromPublicRejectsInputsNamingTheParameter() {
    PublicStatistics stats = new PublicStatistics(2);
    List<String> names = List.of("a", "b");
    int[] columns = {0, 1};
    assertThatThrownBy(() -> FeatureMap.fromPublic(
            stats, names, new int[] {0}, Map.of(), Set.of(), 4, 3))
        .hasMessage("columns.length must equal names.size() 2, but was 1");
    assertThatThrownBy(() -> FeatureMap.fromPublic(
            stats, names, new int[] {0, 2}, Map.of(), Set.of(), 4, 3))
        .hasMessage("columns[1] must be in [0, 1], but was 2");
    assertThatThrownBy(() -> FeatureMap.fromPublic(
            stats, names, columns, Map.of("c", new FeatureMap.Range(0, 1)), Set.of(), 4, 3))
        .hasMessage("userRanges must name only columns in [a, b], but was c");
    assertThatThrownBy(() -> FeatureMap.fromPublic(
            stats, names, columns, Map.of("a", new FeatureMap.Range(0, 1)), Set.of("a"), 4, 3))
        .hasMessage("forcedCategorical must not name a column with a user range, but was a");
    assertThatThrownBy(() -> FeatureMap.fromPublic(stats, names, columns, Map.of(), Set.of(), 0, 3))
        .hasMessage("hashBuckets must be >= 1, but was 0");
    assertThatThrownBy(() -> FeatureMap.fromPublic(stats, names, columns, Map.of(), Set.of(), 4, 0))
        .hasMessage("clip must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new FeatureMap.Range(1, 1))
        .hasMessage("high must be > low 1.0 with a finite difference, but was 1.0");
  }
}
