package dev.tradeoff.selection.stability;

import java.math.BigDecimal;

/** a + b rounded up to a double (privacy parameters add in the safe direction). */
final class SafeSum {

  private SafeSum() {}

  static double up(double a, double b) {
    double s = a + b;
    BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
    return new BigDecimal(s).compareTo(exact) < 0 ? Math.nextUp(s) : s;
  }
}
