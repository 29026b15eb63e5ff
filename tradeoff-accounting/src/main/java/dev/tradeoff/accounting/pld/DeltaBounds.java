package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;

/**
 * Two-sided numerical answer for δ(ε): the true δ lies in [lower, upper]; {@code upper} is the safe
 * value to report.
 *
 * @param lower δ from the optimistic PLD
 * @param upper δ from the pessimistic PLD
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
