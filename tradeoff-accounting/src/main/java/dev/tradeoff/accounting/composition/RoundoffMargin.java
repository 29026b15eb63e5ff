package dev.tradeoff.accounting.composition;

/**
 * A safety margin for privacy quantities computed by a floating-point formula: a value with a
 * relative error of at most {@code terms} units of roundoff (u = 2^-53) is inflated (or deflated)
 * by {@code 4 (terms + 4) u}, so the returned number is never below (above) the exact value of the
 * formula. For single operations rounded exactly in the safe direction, see {@link
 * dev.tradeoff.accounting.numerics.DirectedRounding}.
 */
final class RoundoffMargin {

  /** Unit roundoff of a double, 2^-53. */
  static final double UNIT_ROUNDOFF = 0x1.0p-53;

  private RoundoffMargin() {}

  /** Rounds a non-negative value up, covering a relative error of {@code terms} units of roundoff. */
  static double up(double value, double terms) {
    if (value == 0 || Double.isInfinite(value)) {
      return value;
    }
    return value * (1 + 4 * (terms + 4) * UNIT_ROUNDOFF);
  }

  /** Rounds a non-negative value down, covering a relative error of {@code terms} units. */
  static double down(double value, double terms) {
    if (value == 0 || Double.isInfinite(value)) {
      return value;
    }
    return value * (1 - 4 * (terms + 4) * UNIT_ROUNDOFF);
  }

  /**
   * Rounds a δ up, and keeps it a valid δ: a value that reaches 1 is capped at the largest double
   * below 1. Callers only cap δ that are known (from their exact form) to be below 1.
   */
  static double deltaUp(double value, double terms) {
    return Math.min(up(value, terms), Math.nextDown(1.0));
  }

  /**
   * 1 − Π(1 − δ_l) = −expm1(log Π(1 − δ_l)) rounded up: the δ that k mechanisms reach at ε = Σε_l
   * ([KOV15, Theorem 3.3] at i = 0). Shared so that every method reports the same number for it.
   */
  static double failureFloor(double logNoFailure) {
    // max with +0.0: −expm1(0) is −0.0, which is not a δ.
    return Math.max(0.0, deltaUp(-Math.expm1(logNoFailure), 16));
  }

  /**
   * 1 − Π(1 − δ_l)(1 − x) = [1 − Π(1 − δ_l)] + Π(1 − δ_l)·x, evaluated as that sum of two
   * non-negative terms (no cancellation), each rounded up and the sum rounded up once more.
   *
   * @param logNoFailure log Π(1 − δ_l)
   * @param extra x in [0, 1]: a slack δ′ or a pure-DP δ
   * @param extraTerms relative error of {@code extra} in units of roundoff
   */
  static double failureFloorPlus(double logNoFailure, double extra, double extraTerms) {
    double floor = failureFloor(logNoFailure);
    if (extra == 0) {
      return floor;
    }
    double added = up(Math.exp(logNoFailure) * extra, extraTerms + 4);
    return Math.min(Math.nextUp(floor + added), Math.nextDown(1.0));
  }
}
