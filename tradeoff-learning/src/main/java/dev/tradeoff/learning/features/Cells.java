package dev.tradeoff.learning.features;

/** Reading one cell of a raw CSV row without ever throwing on its content. */
final class Cells {

  /** 2^53: every integer from 0 to it is a double exactly. */
  private static final long EXACT_INTEGERS = 1L << 53;

  /** 10^0 to 10^22, each a double exactly (10^k = 2^k 5^k with 5^22 &lt; 2^53). */
  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  private Cells() {}

  /** The cell at the column stripped of leading and trailing white space; "" if absent or null. */
  static String stripped(String[] cells, int column) {
    if (column >= cells.length || cells[column] == null) {
      return "";
    }
    return cells[column].strip();
  }

  /**
   * The cell as a finite double ({@link Double#parseDouble} of the stripped text), or NaN when it is
   * empty, unparsable, NaN or infinite. A plain decimal is read by {@link #plainDecimal}, which
   * gives the same double; any other text by {@link Double#parseDouble}.
   */
  static double number(String stripped) {
    double plain = plainDecimal(stripped);
    if (!Double.isNaN(plain)) {
      return plain;
    }
    if (stripped.isEmpty()) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(stripped);
      return Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /**
   * The value of a plain decimal — an optional sign, then digits with at most one point among
   * them, at least one digit — whose digits read as one integer m are at most 2^53 and of which
   * at most 22 follow the point, k of them: ±m / 10^k. Both m and 10^k are doubles exactly, and
   * IEEE 754 division rounds their exact quotient to the nearest double (ties to even), so this is
   * the decimal's correctly rounded value, which is what {@link Double#parseDouble} returns (its
   * specification); the fast path of W. D. Clinger, "How to read floating point numbers
   * accurately", PLDI 1990. {@code -0} and {@code -0.0} give −0.0, as there.
   *
   * @return the value, or NaN for any other text (an exponent, more digits, a hexadecimal or
   *     named value, white space, anything else), which the caller reads by
   *     {@link Double#parseDouble}
   */
  static double plainDecimal(String text) {
    int n = text.length();
    int i = 0;
    boolean negative = false;
    if (n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
      negative = text.charAt(0) == '-';
      i = 1;
    }
    long m = 0;
    int digits = 0;
    int afterPoint = -1;
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        int d = c - '0';
        if (m > (EXACT_INTEGERS - d) / 10) {
          return Double.NaN; // 10 m + d > 2^53
        }
        m = 10 * m + d;
        digits++;
        if (afterPoint >= 0) {
          afterPoint++;
        }
      } else if (c == '.' && afterPoint < 0) {
        afterPoint = 0;
      } else {
        return Double.NaN;
      }
    }
    int k = Math.max(afterPoint, 0);
    if (digits == 0 || k >= POWERS_OF_TEN.length) {
      return Double.NaN;
    }
    double v = m / POWERS_OF_TEN[k];
    return negative ? -v : v;
  }
}
