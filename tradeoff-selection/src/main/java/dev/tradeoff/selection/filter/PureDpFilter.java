package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.function.Supplier;

/**
 * A privacy filter for ex-post pure DP: the pure-DP counterpart of Algorithm 4 of the ex-post paper
 * (the filters of Rogers et al. 2016 and Lebensold et al. 2024 that the paper cites). A request
 * with ex-post guarantee ε̃ is admitted only if spent + sup_o ε̃(o) ≤ ε; after it runs, the realised
 * ε̃(o) is charged. The transcript of all admitted requests is ε-DP ex-ante.
 *
 * <p>If the mechanism throws, no output is released and the reservation is cancelled (nothing is
 * charged); if ε̃(o) cannot be evaluated, the whole reservation sup ε̃ is charged. The spent budget
 * lives in a pluggable {@link BudgetStore}.
 */
public final class PureDpFilter {

  private final Charge budget;
  private final BudgetStore store;

  /**
   * @param budget total ε &gt; 0
   * @param store where spent budget is kept (shared stores make filters share the budget)
   */
  public PureDpFilter(PureDp budget, BudgetStore store) {
    Require.nonNull("budget", budget);
    Require.positive("budget epsilon", budget.epsilon());
    this.budget = Charge.ofEpsilon(budget.epsilon());
    this.store = Require.nonNull("store", store);
  }

  /**
   * Runs {@code mechanism} if its worst case fits, charging ε̃ of its output.
   *
   * @throws BudgetExceededException if spent + sup ε̃ would exceed the budget (nothing runs)
   * @throws IllegalArgumentException if the guarantee has δ &gt; 0
   */
  public <O> O answer(String description, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    Require.that(guarantee.delta() == 0, "guarantee delta", "must be 0 for a pure-DP filter", guarantee.delta());
    return Admission.admit(
        store,
        budget,
        description,
        Charge.ofEpsilon(guarantee.exAnteEpsilon()),
        mechanism,
        o -> Charge.ofEpsilon(guarantee.epsilonOf(o)));
  }

  /** What remains of the budget (rounded down). */
  public Charge remaining() {
    return budget.minusFloorZero(store.spent());
  }

  /** The total budget. */
  public Charge budget() {
    return budget;
  }
}
