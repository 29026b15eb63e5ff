package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A privacy filter for ex-post pure DP: the pure-DP counterpart of [ExPost25, Algorithm 4]
 * (the filters of Rogers et al. 2016 and Lebensold et al. 2024 that the paper cites). A request
 * with ex-post guarantee ε̃ is admitted only if spent + sup_o ε̃(o) ≤ ε; after it runs, the realised
 * ε̃(o) is charged. Everything admitted is ε-DP ex ante.
 *
 * <p>The budget and what was spent live in a pluggable {@link BudgetStore} with a pure-DP budget:
 * {@link dev.tradeoff.accounting.budget.InMemoryBudgetStore} or the persistent {@code SqliteLedger}
 * (module tradeoff-ledger).
 * If the mechanism throws, its reservation is cancelled and nothing is charged (nothing but the
 * failure is released; callers that surface failures should keep their messages data-free); if
 * ε̃(o) cannot be evaluated, the whole worst case sup ε̃ is charged.
 */
public final class PureDpFilter {

  private final BudgetStore store;

  /** A filter over {@code store}, whose budget must be {@link PureDp}. */
  public PureDpFilter(BudgetStore store) {
    this.store = Require.nonNull("store", store);
    Require.that(store.kind() == GuaranteeKind.PURE_DP, "store budget", "must be PureDp", store.budget());
  }

  /**
   * Runs {@code mechanism} if its worst case fits, charging ε̃ of its output.
   *
   * @throws dev.tradeoff.accounting.budget.BudgetExceededException if spent + sup ε̃ would exceed
   *     the budget (nothing runs, nothing is charged)
   * @throws IllegalArgumentException if the guarantee has δ &gt; 0
   */
  public <O> O answer(String label, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("mechanism", mechanism);
    Require.that(guarantee.delta() == 0, "guarantee delta", "must be 0 for a pure-DP filter", guarantee.delta());
    return Admission.admit(
        store,
        label,
        new PureDp(guarantee.exAnteEpsilon()),
        mechanism,
        o -> new PureDp(guarantee.epsilonOf(o)));
  }

  /**
   * As {@link #answer(String, ExPostDp, Supplier)} for a mechanism whose result carries its
   * released outcome next to data-independent bookkeeping (such as a tuner's run count).
   */
  public <R, O> R answer(
      String label, ExPostDp<O> guarantee, Supplier<R> mechanism, Function<R, O> outcomeOf) {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("mechanism", mechanism);
    Require.nonNull("outcomeOf", outcomeOf);
    Require.that(guarantee.delta() == 0, "guarantee delta", "must be 0 for a pure-DP filter", guarantee.delta());
    return Admission.admit(
        store,
        label,
        new PureDp(guarantee.exAnteEpsilon()),
        mechanism,
        r -> new PureDp(guarantee.epsilonOf(outcomeOf.apply(r))));
  }

  /** What remains of the budget (rounded down). */
  public PrivacyGuarantee remaining() {
    return store.remaining();
  }

  /** The remaining ε (rounded down). */
  public double remainingEpsilon() {
    return ((PureDp) store.remaining()).epsilon();
  }

  /** The store. */
  public BudgetStore store() {
    return store;
  }
}
