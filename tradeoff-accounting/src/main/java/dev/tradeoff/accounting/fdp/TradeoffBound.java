package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.internal.Require;

/**
 * A numerically computed trade-off function with its certified error: {@code lower} lies at or
 * below the true curve f everywhere (the safe direction: a lower trade-off function claims less
 * privacy), and f ≤ lower + gap pointwise. Both statements hold up to floating-point rounding of
 * the vertex coordinates (a few ulps of 1).
 *
 * @param lower a valid trade-off function below the truth
 * @param gap sup_α (f(α) − lower(α)), an upper bound on it; ≥ 0
 */
public record TradeoffBound(PiecewiseLinearTradeoff lower, double gap) {

  public TradeoffBound {
    Require.nonNull("lower", lower);
    Require.nonNegative("gap", gap);
  }

  /** An exactly known curve (gap 0). */
  public static TradeoffBound exact(PiecewiseLinearTradeoff curve) {
    return new TradeoffBound(curve, 0);
  }
}
