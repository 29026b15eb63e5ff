package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import java.util.function.Supplier;

/**
 * A privacy filter for ex-post approximate DP: the approximate-DP counterpart of Algorithm 4 of the
 * ex-post paper with basic composition (Rogers et al. 2016's filter, with the realised ε̃ of each
 * request charged as in Lebensold et al. 2024). A request with ex-post (ε̃, δ_i) guarantee is
 * admitted only if spent_ε + sup ε̃ ≤ ε and spent_δ + δ_i ≤ δ; then ε̃(o) and δ_i are charged.
 *
 * <p>Ex-post RDP requests enter through Lemma 7: (α, ε̃)-RDP becomes (ε̃ + log(1/δ_i)/(α − 1), δ_i).
 * Failure handling is that of {@link PureDpFilter}.
 */
public final class ApproxDpFilter {

  private final Charge budget;
  private final BudgetStore store;

  public ApproxDpFilter(ApproxDp budget, BudgetStore store) {
    Require.nonNull("budget", budget);
    Require.positive("budget epsilon", budget.epsilon());
    this.budget = new Charge(budget.epsilon(), budget.delta());
    this.store = Require.nonNull("store", store);
  }

  /**
   * Runs {@code mechanism} if its worst case (sup ε̃, δ) fits, charging (ε̃(o), δ).
   *
   * @throws BudgetExceededException if it does not fit (nothing runs)
   */
  public <O> O answer(String description, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    double delta = guarantee.delta();
    return Admission.admit(
        store,
        budget,
        description,
        new Charge(guarantee.exAnteEpsilon(), delta),
        mechanism,
        o -> new Charge(guarantee.epsilonOf(o), delta));
  }

  /** An ex-post RDP request, converted by Lemma 7 at the δ_i given. */
  public <O> O answer(
      String description, ExPostRdp<O> guarantee, double delta, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    return answer(description, guarantee.toExPostDp(delta), mechanism);
  }

  /** What remains of the budget (rounded down). */
  public Charge remaining() {
    return budget.minusFloorZero(store.spent());
  }
}
