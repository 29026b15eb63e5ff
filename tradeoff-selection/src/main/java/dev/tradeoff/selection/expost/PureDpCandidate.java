package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.internal.Require;

/**
 * A candidate mechanism that is ε_i-DP (ex-ante pure DP), the input of Algorithms 2 and 3 with
 * [ExPost25, Theorems 10 and 11].
 *
 * @param <O> the artefact type
 * @param mechanism the mechanism
 * @param epsilon ε_i &gt; 0 and finite
 */
public record PureDpCandidate<O>(Candidate<O> mechanism, double epsilon) {

  public PureDpCandidate {
    Require.nonNull("mechanism", mechanism);
    Require.positive("epsilon", epsilon);
  }
}
