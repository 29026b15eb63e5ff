package dev.tradeoff.learning.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ColumnEncoderTest {

  private static double[] encode(ColumnEncoder encoder, String... cells) {
    double[] out = new double[encoder.dimension()];
    encoder.encode(cells, out, 0);
    return out;
  }

  @Test
  void numericStandardisesClipsAndFlagsMissingCells() {
    ColumnEncoder.Numeric income = new ColumnEncoder.Numeric("income", 0, 5000, 2000, 4);
    assertThat(encode(income, " 7000 ")).containsExactly(1, 0);
    assertThat(encode(income, "1e9")).containsExactly(4, 0);
    assertThat(encode(income, "-1e308")).containsExactly(-4, 0);
    for (String missing : new String[] {"", "  ", "n/a", "NaN", "Infinity", "-Infinity", "1,5"}) {
      assertThat(encode(income, missing)).as(missing).containsExactly(0, 1);
    }
    assertThat(encode(income, (String) null)).containsExactly(0, 1);
    assertThat(encode(income)).as("absent cell").containsExactly(0, 1);
  }

  @Test
  void rangedMapsTheUserRangeOntoMinusOneToOne() {
    ColumnEncoder.Ranged age = new ColumnEncoder.Ranged("age", 1, 0, 100);
    assertThat(encode(age, "x", "0")).containsExactly(-1, 0);
    assertThat(encode(age, "x", "50")).containsExactly(0, 0);
    assertThat(encode(age, "x", "75")).containsExactly(0.5, 0);
    assertThat(encode(age, "x", "1000")).containsExactly(1, 0);
    assertThat(encode(age, "x", "-3")).containsExactly(-1, 0);
    assertThat(encode(age, "x", "old")).containsExactly(0, 1);
  }

  @Test
  void hashedSetsOneSignedBucketAndFlagsEmptyCells() {
    ColumnEncoder.Hashed city = new ColumnEncoder.Hashed("city", 0, 16);
    double[] paris = encode(city, "Paris");
    int nonZero = 0;
    for (int b = 0; b < 16; b++) {
      if (paris[b] != 0) {
        nonZero++;
        assertThat(Math.abs(paris[b])).isEqualTo(1);
      }
    }
    assertThat(nonZero).isEqualTo(1);
    assertThat(paris[16]).isZero();
    assertThat(encode(city, "  Paris\t")).containsExactly(paris);
    double[] empty = encode(city, " ");
    assertThat(empty[16]).isEqualTo(1);
    assertThat(Arrays.stream(empty).sum()).isEqualTo(1);
  }

  @Test
  void hashIsFixedAcrossRunsAndJvms() {
    // FNV-1a 64 of "a" is the published test vector 0xaf63dc4c8601ec8c
    assertThat(ColumnEncoder.Hashed.fnv1a64(new byte[] {'a'})).isEqualTo(0xaf63dc4c8601ec8cL);
    // fmix64 of FNV-1a 64 of "city=Paris", checked against an independent implementation
    assertThat(ColumnEncoder.Hashed.hash("city=Paris")).isEqualTo(6019600010973292490L);
    // top bit 0 → sign +1; 6019600010973292490 mod 1000 = 490
    double[] paris = encode(new ColumnEncoder.Hashed("city", 0, 1000), "Paris");
    assertThat(paris[490]).isEqualTo(1);
  }

  @Test
  void bothUnicodeSpellingsOfEAcuteLandInTheSameBucket() {
    ColumnEncoder.Hashed name = new ColumnEncoder.Hashed("name", 0, 1 << 16);
    String composed = "Ren\u00e9";
    String decomposed = "Rene\u0301";
    assertThat(composed).isNotEqualTo(decomposed);
    assertThat(Arrays.equals(encode(name, decomposed), encode(name, composed))).isTrue();
  }

  @Test
  void neverThrowsOnArbitraryCells() {
    SplittableRandom random = new SplittableRandom(3);
    ColumnEncoder[] encoders = {
      new ColumnEncoder.Numeric("a", 0, 0, 1, 3),
      new ColumnEncoder.Ranged("b", 0, -1, 1),
      new ColumnEncoder.Hashed("c", 0, 7)
    };
    for (int trial = 0; trial < 2000; trial++) {
      StringBuilder cell = new StringBuilder();
      int length = random.nextInt(12);
      for (int k = 0; k < length; k++) {
        // any UTF-16 unit, unpaired surrogates included
        cell.append((char) random.nextInt(trial % 2 == 0 ? 128 : 0x10000));
      }
      for (ColumnEncoder encoder : encoders) {
        double[] out = encode(encoder, cell.toString());
        for (double v : out) {
          assertThat(Double.isFinite(v)).isTrue();
          assertThat(Math.abs(v)).isLessThanOrEqualTo(3);
        }
      }
    }
  }

  @Test
  void describesEachEncoderOnOneLine() {
    assertThat(new ColumnEncoder.Numeric("x1", 3, 3.2, 1.1, 4).describe())
        .isEqualTo("x1 (column 3): numeric, standardised with public statistics (center 3.2,"
            + " scale 1.1), clipped to ±4.0, missing indicator");
    assertThat(new ColumnEncoder.Ranged("age", 0, 0, 120).describe())
        .isEqualTo("age (column 0): numeric, user range [0.0, 120.0] mapped to [-1, 1],"
            + " missing indicator");
    assertThat(new ColumnEncoder.Hashed("city", 2, 32).describe()).startsWith(
        "city (column 2): categorical, hashed into 32 buckets");
  }

  @Test
  void rejectsBadParametersNamingThem() {
    assertThatThrownBy(() -> new ColumnEncoder.Numeric("x", 0, 0, 0, 4))
        .hasMessage("scale must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new ColumnEncoder.Numeric("x", -1, 0, 1, 4))
        .hasMessage("column must be >= 0, but was -1");
    assertThatThrownBy(() -> new ColumnEncoder.Numeric("x", 0, Double.NaN, 1, 4))
        .hasMessage("center must be finite, but was NaN");
    assertThatThrownBy(() -> new ColumnEncoder.Ranged("x", 0, 5, 5))
        .hasMessage("high must be > low 5.0 with a finite difference, but was 5.0");
    assertThatThrownBy(() -> new ColumnEncoder.Hashed("x", 0, 0))
        .hasMessage("buckets must be >= 1, but was 0");
    assertThatThrownBy(() -> new ColumnEncoder.Hashed(null, 0, 4))
        .hasMessage("name must not be null");
  }

  @Test
  void rangedValuesStayInMinusOneToOne() {
    SplittableRandom random = new SplittableRandom(8);
    for (int trial = 0; trial < 1000; trial++) {
      double low = random.nextGaussian() * Math.exp(5 * random.nextGaussian());
      double high = low + Math.exp(5 * random.nextGaussian());
      ColumnEncoder.Ranged ranged = new ColumnEncoder.Ranged("r", 0, low, high);
      double v = low + (high - low) * (3 * random.nextDouble() - 1);
      double[] out = encode(ranged, Double.toString(v));
      assertThat(out[0]).isBetween(-1.0, 1.0);
      assertThat(out[0]).isCloseTo(
          2 * (Math.max(low, Math.min(high, v)) - low) / (high - low) - 1, within(1e-9));
    }
  }
}
