package dev.tradeoff.accounting.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShownTest {

  @Test
  void controlCharactersLineBreaksAndInvalidUtf8BecomeVisibleEscapes() {
    assertThat(Shown.value("\u001b[31mred\u001b[0m")).isEqualTo("\\e[31mred\\e[0m");
    assertThat(Shown.value("a\nb\rc\td\u0000e\u007f")).isEqualTo("a\\nb\\rc\\td\\x00e\\x7F");
    assertThat(Shown.value("x\u2028y\u200bz\u0085")).isEqualTo("x\\u{2028}y\\u{200B}z\\x85");
    String invalid = new String(new byte[] {'a', (byte) 0xff, 'b'}, StandardCharsets.UTF_8);
    assertThat(Shown.value(invalid)).isEqualTo("a\\u{FFFD}b");
    assertThat(Shown.value("caf\u00e9 \u03b5 = 1, \u2264 \ud83d\ude00")).isEqualTo(
        "caf\u00e9 \u03b5 = 1, \u2264 \ud83d\ude00");
    assertThat(Shown.value("lone \ud800 surrogate")).isEqualTo("lone \\u{D800} surrogate");
  }

  @Test
  void longTextIsCutWithACountOfWhatWasLeftOut() {
    assertThat(Shown.value("A".repeat(500))).isEqualTo("A".repeat(Shown.VALUE_LIMIT)
        + "... (" + (500 - Shown.VALUE_LIMIT) + " more characters)");
    assertThat(Shown.line("  " + "B".repeat(Shown.LINE_LIMIT) + "\n")).isEqualTo(
        "B".repeat(Shown.LINE_LIMIT));
  }

  /** Seeded random strings: the result is printable, one line, bounded, and escaping is idempotent. */
  @Test
  void anyTextBecomesOnePrintableBoundedLineAndEscapingTwiceChangesNothing() {
    SplittableRandom random = new SplittableRandom(22);
    for (int trial = 0; trial < 2000; trial++) {
      StringBuilder s = new StringBuilder();
      int n = random.nextInt(300);
      for (int i = 0; i < n; i++) {
        s.append((char) (random.nextBoolean() ? random.nextInt(0x100) : random.nextInt(0x10000)));
      }
      String shown = Shown.value(s.toString());
      assertThat(shown.codePoints().noneMatch(c -> Character.isISOControl(c) || c == 0xFFFD
          || Character.getType(c) == Character.FORMAT || Character.getType(c)
          == Character.SURROGATE || c == 0x2028 || c == 0x2029)).as(shown).isTrue();
      assertThat(shown.length()).isLessThanOrEqualTo(Shown.VALUE_LIMIT * 8 + 40);
      if (s.codePointCount(0, s.length()) <= Shown.VALUE_LIMIT / 8) {
        assertThat(Shown.value(shown)).isEqualTo(shown);
      }
    }
  }
}
