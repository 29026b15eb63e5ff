package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.internal.Require;

/**
 * How hard {@link BernoulliSampling#amplify(double, SearchBudget)} searches before it stops: a gap
 * tolerance (in ε units, absolute) and a branch-and-bound node budget. Running out of nodes leaves a
 * valid but uncertified interval.
 *
 * @param gapTolerance the largest acceptable {@code upperBound − post}, &gt; 0
 * @param maxNodes the most boxes branched, ≥ 1
 */
public record SearchBudget(double gapTolerance, long maxNodes) {

  /**
   * Gap 1e-9 and 200 000 nodes: enough to certify d = 1 (a few thousand nodes suffice); d ≥ 2 is
   * not certified by this search and returns its valid, uncertified interval.
   */
  public static final SearchBudget DEFAULT = new SearchBudget(1e-9, 200_000);

  public SearchBudget {
    Require.positive("gapTolerance", gapTolerance);
    Require.positive("maxNodes", maxNodes);
  }
}
