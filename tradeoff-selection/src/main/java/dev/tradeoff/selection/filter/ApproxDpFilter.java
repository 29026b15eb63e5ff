package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;
import java.util.function.Supplier;

/**
 * A privacy filter for ex-post approximate DP: the approximate-DP counterpart of Algorithm 4 of the
 * [ExPost25] with basic composition (Rogers et al. 2016's filter, with the realised ε̃ of each
 * request charged as in Lebensold et al. 2024). A request with ex-post (ε̃, δ_i) guarantee is
 * admitted only if spent_ε + sup ε̃ ≤ ε and spent_δ + δ_i ≤ δ; then (ε̃(o), δ_i) is charged.
 *
 * <p>Ex-post RDP requests enter through Lemma 7: (α, ε̃)-RDP gives (ε̃ + log(1/δ_i)/(α − 1), δ_i).
 * The store's budget must be {@link ApproxDp}; failure handling is that of {@link PureDpFilter}.
 */
public final class ApproxDpFilter {

  private final BudgetStore store;

  public ApproxDpFilter(BudgetStore store) {
    this.store = Require.nonNull("store", store);
    Require.that(store.kind() == GuaranteeKind.APPROX_DP, "store budget", "must be ApproxDp", store.budget());
  }

  /**
   * Runs {@code mechanism} if its worst case (sup ε̃, δ) fits, charging (ε̃(o), δ).
   *
   * @throws dev.tradeoff.accounting.budget.BudgetExceededException if it does not fit
   */
  public <O> O answer(String label, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("mechanism", mechanism);
    double delta = guarantee.delta();
    return Admission.admit(
        store,
        label,
        new ApproxDp(guarantee.exAnteEpsilon(), delta),
        mechanism,
        o -> new ApproxDp(guarantee.epsilonOf(o), delta));
  }

  /** An ex-post RDP request, converted by Lemma 7 at the δ_i given. */
  public <O> O answer(String label, ExPostRdp<O> guarantee, double delta, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    return answer(label, guarantee.toExPostDp(delta), mechanism);
  }

  /** What remains (rounded down). */
  public PrivacyGuarantee remaining() {
    return store.remaining();
  }
}
