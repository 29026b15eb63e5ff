package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;

/**
 * Two-sided numerical answer for ε(δ), in the style of prv_accountant: the true ε lies in
 * [lower, upper]. {@code upper} is the safe value to report; {@code upper − lower} is the
 * discretization gap.
 *
 * @param lower ε from the optimistic PLD (rounded down); +∞ if even it cannot reach δ
 * @param upper ε from the pessimistic PLD (rounded up); may be +∞
 */
public record EpsilonBounds(double lower, double upper) {
  public EpsilonBounds {
    Require.that(lower >= 0, "lower", "must be >= 0 (+infinity where no finite epsilon reaches delta)", lower);
    Require.that(upper >= lower, "upper", "must be >= lower (" + lower + ")", upper);
  }

  /** upper − lower. */
  public double gap() {
    return upper - lower;
  }
}
