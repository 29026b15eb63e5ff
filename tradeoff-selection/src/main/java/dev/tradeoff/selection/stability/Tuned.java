package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * The release of a private selection: the chosen candidate, its model and the guarantee of the
 * pair. No score is part of the release (scores are computed on private data).
 *
 * @param index the chosen candidate i*
 * @param model the released model f_{i*}
 * @param guarantee the privacy guarantee of (i*, f_{i*}), as an accounting value
 */
public record Tuned<M>(int index, M model, ApproxDp guarantee) {

  public Tuned {
    Require.nonNegative("index", index);
    Require.nonNull("model", model);
    Require.nonNull("guarantee", guarantee);
  }
}
