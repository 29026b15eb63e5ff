package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * Two-sided answer for ε(δ), in the style of prv_accountant: the true ε lies in [lower, upper].
 * {@code upper} is the safe value to report; {@code upper − lower} is what the method leaves
 * open (the PLD's discretization gap; all of [0, upper] for a method that is only an upper
 * bound; the last bits for an exact one). Every {@link PrivacyProfile} answers with one.
 *
 * @param lower a lower bound on the true ε (for the PLD, from its optimistic discretization,
 *     rounded down); +∞ if the truth is known to be +∞
 * @param upper an upper bound (for the PLD, from its pessimistic discretization, rounded up); may
 *     be +∞
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
