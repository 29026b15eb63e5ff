package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * A candidate mechanism that is (α, ε_i(α))-RDP on an order grid, the input of Algorithm 3 with
 * exponential dropping ([ExPost25, Theorem 13]).
 *
 * @param <O> the artefact type
 * @param mechanism the mechanism
 * @param guarantee its RDP curve; ε at an order off the grid is read conservatively with {@link
 *     RenyiDp#epsilonAt(double)}
 */
public record RdpCandidate<O>(Candidate<O> mechanism, RenyiDp guarantee) {

  public RdpCandidate {
    Require.nonNull("mechanism", mechanism);
    Require.nonNull("guarantee", guarantee);
  }
}
