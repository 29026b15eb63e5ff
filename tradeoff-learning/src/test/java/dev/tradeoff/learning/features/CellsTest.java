package dev.tradeoff.learning.features;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CellsTest {

  /** The bits of what {@link Double#parseDouble} gives, or of NaN where it refuses the text. */
  private static long reference(String text) {
    try {
      double v = Double.parseDouble(text);
      return Double.doubleToRawLongBits(Double.isFinite(v) ? v : Double.NaN);
    } catch (NumberFormatException e) {
      return Double.doubleToRawLongBits(Double.NaN);
    }
  }

  private static void agrees(String text) {
    String stripped = text.strip();
    assertThat(Double.doubleToRawLongBits(Cells.number(stripped))).as("'%s'", stripped)
        .isEqualTo(stripped.isEmpty() ? Double.doubleToRawLongBits(Double.NaN)
            : reference(stripped));
  }

  @Test
  void plainDecimalsAndEverythingElseReadAsDoubleParseDoubleReadsThem() {
    String[] texts = {"0", "-0", "+0", "-0.0", "0.", ".0", "-.5", "+.5", "1.", ".", "+", "-", "",
        "1e5", "1E-3", "0x1p3", "NaN", "-Infinity", "Infinity", "1d", "2f", "1..2", "1.2.3",
        "--1", "+-1", "1 2", "١", "9007199254740992", "9007199254740993", "-9007199254740993",
        "900719925474099.3", "90071992547409921", "0.1", "0.2", "0.3", "0.30000000000000004",
        "1.7976931348623157", "4.9406564584124654", "0.0000000000000000000001",
        "0.00000000000000000000001", "1.0000000000000000000000", "123456789012345.6",
        "000000000000000000000000000012.5", "-1.2345", "3.14159", "2.718281828459045"};
    for (String text : texts) {
      agrees(text);
    }
  }

  /**
   * Random decimals of 1 to 20 digits with the point anywhere or nowhere, signs and leading
   * zeros: read through {@link Cells#number} they equal Double.parseDouble's bit for bit, and
   * what the fast path reads equals BigDecimal's correctly rounded value; digits beyond 2^53 go
   * to Double.parseDouble (NaN from the fast path).
   */
  @Test
  void randomDecimalsMatchParseDoubleBitForBit() {
    SplittableRandom r = new SplittableRandom(7);
    int fast = 0;
    for (int trial = 0; trial < 200_000; trial++) {
      StringBuilder s = new StringBuilder();
      switch (r.nextInt(3)) {
        case 0 -> s.append('-');
        case 1 -> s.append(r.nextInt(4) == 0 ? "+" : "");
        default -> { }
      }
      int digits = r.nextInt(1, 21);
      int point = r.nextInt(-1, digits + 1);
      for (int d = 0; d < digits; d++) {
        if (d == point) {
          s.append('.');
        }
        s.append((char) ('0' + (d == 0 && r.nextInt(5) == 0 ? 0 : r.nextInt(10))));
      }
      if (point == digits) {
        s.append('.');
      }
      String text = s.toString();
      agrees(text);
      double plain = Cells.plainDecimal(text);
      if (!Double.isNaN(plain)) {
        fast++;
        assertThat(plain).as(text).isEqualTo(new BigDecimal(text).doubleValue());
      }
    }
    assertThat(fast).as("texts the fast path read").isGreaterThan(100_000);
  }

  @Test
  void theFastPathLeavesTextsItCannotReadExactlyToParseDouble() {
    assertThat(Cells.plainDecimal("9007199254740993")).isNaN(); // 2^53 + 1
    assertThat(Cells.plainDecimal("1.00000000000000000000000")).isNaN(); // 23 after the point
    assertThat(Cells.plainDecimal("1e5")).isNaN();
    assertThat(Cells.plainDecimal(" 1")).isNaN();
    assertThat(Cells.plainDecimal("9007199254740992")).isEqualTo(9007199254740992.0);
    assertThat(Double.doubleToRawLongBits(Cells.plainDecimal("-0.0")))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }
}
