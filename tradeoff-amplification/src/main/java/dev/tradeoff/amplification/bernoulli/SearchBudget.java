package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.Require;

/**
 * How hard {@link BernoulliSampling#amplify(double, SearchBudget)} searches before it stops: a gap
 * tolerance (in ε units, absolute) and a branch-and-bound node budget. Running out of nodes leaves a
 * valid but uncertified interval.
 *
 * @param gapTolerance the largest acceptable {@code upperBound − post}, &gt; 0
 * @param maxNodes the most boxes branched, ≥ 1
 */
public record SearchBudget(double gapTolerance, long maxNodes) {

  /** Gap 1e-9 and two million nodes: certifies d = 1 for k up to several hundred. */
  public static final SearchBudget DEFAULT = new SearchBudget(1e-9, 2_000_000);

  public SearchBudget {
    Require.positive("gapTolerance", gapTolerance);
    Require.positive("maxNodes", maxNodes);
  }
}
