package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * Two-sided answer for δ(ε): the true δ lies in [lower, upper]; {@code upper} is the safe value to
 * report. Every {@link PrivacyProfile} answers with one.
 *
 * @param lower a lower bound on the true δ (for the PLD, from its optimistic discretization)
 * @param upper an upper bound on the true δ (for the PLD, from its pessimistic discretization)
 */
public record DeltaBounds(double lower, double upper) {
  public DeltaBounds {
    Require.probability("lower", lower);
    Require.probability("upper", upper);
    Require.that(upper >= lower, "upper", "must be >= lower (" + lower + ")", upper);
  }

  /** upper − lower. */
  public double gap() {
    return upper - lower;
  }
}
