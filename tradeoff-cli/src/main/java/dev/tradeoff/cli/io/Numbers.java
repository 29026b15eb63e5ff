package dev.tradeoff.cli.io;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * How the command line prints a number in a table: its shortest decimal form when that has at
 * most {@value #DIGITS} significant digits (so {@code 0.1 + 0.2} never shows as
 * {@code 0.30000000000000004}), else {@value #DIGITS} significant digits rounded in the direction
 * that is safe for the quantity: {@link #up} for what bounds a privacy loss (ε, δ, μ spent, noise
 * needed), {@link #down} for what bounds a budget left or an admissible parameter. JSON keeps the
 * exact double.
 */
public final class Numbers {

  /** Significant digits shown. */
  public static final int DIGITS = 6;

  private Numbers() {}

  /** Rounded up (away from zero for positive values): ε, δ and costs. */
  public static String up(double x) {
    return format(x, RoundingMode.CEILING);
  }

  /** Rounded down: budgets remaining, admissible parameters. */
  public static String down(double x) {
    return format(x, RoundingMode.FLOOR);
  }

  /** Rounded to nearest: values with no safe direction (accuracies, scores). */
  public static String nearest(double x) {
    return format(x, RoundingMode.HALF_EVEN);
  }

  /** A table cell: a double rounded to nearest as above, anything else as it prints itself. */
  public static String shown(Object value) {
    return value instanceof Double d ? nearest(d) : String.valueOf(value);
  }

  public static String format(double x, RoundingMode mode) {
    if (!Double.isFinite(x) || x == 0) {
      return x == 0 ? "0" : String.valueOf(x);
    }
    BigDecimal shortest = new BigDecimal(Double.toString(x));
    BigDecimal shown = shortest.precision() <= DIGITS
        ? shortest
        : new BigDecimal(x).round(new MathContext(DIGITS, mode));
    shown = shown.stripTrailingZeros();
    int exponent = shown.precision() - shown.scale() - 1;
    return exponent < -5 || exponent > 9 ? shown.toString() : shown.toPlainString();
  }
}
