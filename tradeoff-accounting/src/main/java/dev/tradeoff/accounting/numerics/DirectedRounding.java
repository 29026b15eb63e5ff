package dev.tradeoff.accounting.numerics;

import java.math.BigDecimal;

/**
 * Floating-point arithmetic on privacy quantities, rounded in the safe direction: ε and δ up,
 * noise scales down where an accountant is told the scale (a smaller stated scale makes the
 * accountant more pessimistic). Each result is the nearest double on the safe side of the exact
 * real result (checked against {@link BigDecimal} arithmetic). For a whole formula whose relative
 * error is bounded, the composition package pads the result with a roundoff margin instead.
 */
public final class DirectedRounding {

  private DirectedRounding() {}

  /** The smallest double ≥ a + b (exact sum). */
  public static double sumUp(double a, double b) {
    double s = a + b;
    BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
    return new BigDecimal(s).compareTo(exact) < 0 ? Math.nextUp(s) : s;
  }

  /** The smallest double ≥ a·b. */
  public static double productUp(double a, double b) {
    double p = a * b;
    BigDecimal exact = new BigDecimal(a).multiply(new BigDecimal(b));
    return new BigDecimal(p).compareTo(exact) < 0 ? Math.nextUp(p) : p;
  }

  /** The largest double ≤ a/b for a ≥ 0, b &gt; 0. */
  public static double quotientDown(double a, double b) {
    double q = a / b;
    // q ≤ a/b  ⇔  q·b ≤ a
    BigDecimal back = new BigDecimal(q).multiply(new BigDecimal(b));
    return back.compareTo(new BigDecimal(a)) > 0 ? Math.nextDown(q) : q;
  }

  /** The smallest double ≥ a/b for a ≥ 0, b &gt; 0. */
  public static double quotientUp(double a, double b) {
    double q = a / b;
    BigDecimal back = new BigDecimal(q).multiply(new BigDecimal(b));
    return back.compareTo(new BigDecimal(a)) < 0 ? Math.nextUp(q) : q;
  }

}
