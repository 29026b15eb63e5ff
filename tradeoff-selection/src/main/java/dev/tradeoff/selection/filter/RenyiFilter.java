package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The privacy filter for ex-post Rényi DP [ExPost25, Algorithm 4 and Theorem 16], at one order
 * α with total budget ε: request i, with ex-post (α, ε̃_i)-RDP, is admitted only if Σ_{j&lt;i}
 * ε̃_j(o_j) + sup_o ε̃_i(o) ≤ ε; the realised ε̃_i(o_i) is then charged. By Theorem 16 the whole
 * interaction is ex-ante (α, ε)-RDP, and by Lemma 7 (constant ε̃) (ε + log(1/δ)/(α − 1), δ)-DP.
 *
 * <p>The store must run such a filter ({@link BudgetStore#exPostOrder()}): a one-order {@link
 * RenyiDp} (α, ε) budget, or an (ε, δ) ledger whose policy has an ex-post share at α (there the
 * filter's bound is the RDP value that converts to the share's (ε, δ)). Ex-post pure-DP requests enter
 * through Lemma 7's first part (ε̃-DP ⇒ (α, ε̃)-RDP). Failure handling is that of {@link
 * PureDpFilter}.
 */
public final class RenyiFilter {

  private final BudgetStore store;
  private final double alpha;

  /**
   * @param store a store that runs an ex-post RDP filter ({@link BudgetStore#exPostOrder()}): a
   *     one-order {@link RenyiDp} budget, or an (ε, δ) ledger with an ex-post share
   */
  public RenyiFilter(BudgetStore store) {
    this.store = Require.nonNull("store", store);
    Require.that(store.exPostOrder().isPresent(), "store budget",
        "must be a one-order RenyiDp or an (epsilon, delta) ledger with an expost filter",
        store.budget());
    this.alpha = store.exPostOrder().getAsDouble();
  }

  /**
   * Runs {@code mechanism} if sup ε̃ fits, charging ε̃(o).
   *
   * @throws IllegalArgumentException if the guarantee's order is not this filter's α
   * @throws dev.tradeoff.accounting.budget.BudgetExceededException if it does not fit
   */
  public <O> O answer(String label, ExPostRdp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("mechanism", mechanism);
    Require.that(guarantee.alpha() == alpha, "guarantee alpha", "must equal the filter order " + alpha, guarantee.alpha());
    return Admission.admit(
        store,
        label,
        RenyiDp.ofOrder(alpha, guarantee.exAnteEpsilon()),
        mechanism,
        o -> RenyiDp.ofOrder(alpha, guarantee.epsilonOf(o)));
  }

  /**
   * As {@link #answer(String, ExPostRdp, Supplier)} for a mechanism whose result carries its
   * released outcome next to data-independent bookkeeping (such as a tuner's run count).
   */
  public <R, O> R answer(
      String label, ExPostRdp<O> guarantee, Supplier<R> mechanism, Function<R, O> outcomeOf) {
    Require.nonNull("guarantee", guarantee);
    Require.nonNull("mechanism", mechanism);
    Require.nonNull("outcomeOf", outcomeOf);
    Require.that(guarantee.alpha() == alpha, "guarantee alpha", "must equal the filter order " + alpha, guarantee.alpha());
    return Admission.admit(
        store,
        label,
        RenyiDp.ofOrder(alpha, guarantee.exAnteEpsilon()),
        mechanism,
        r -> RenyiDp.ofOrder(alpha, guarantee.epsilonOf(outcomeOf.apply(r))));
  }

  /** An ex-post pure-DP request (Lemma 7, first part). */
  public <O> O answer(String label, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    return answer(label, guarantee.toExPostRdp(alpha), mechanism);
  }

  /** An ex-post pure-DP request (Lemma 7, first part) whose result carries its outcome. */
  public <R, O> R answer(
      String label, ExPostDp<O> guarantee, Supplier<R> mechanism, Function<R, O> outcomeOf) {
    Require.nonNull("guarantee", guarantee);
    return answer(label, guarantee.toExPostRdp(alpha), mechanism, outcomeOf);
  }

  /**
   * The ex-ante guarantee of everything this filter admits on a one-order Rényi store: (α,
   * ε)-RDP (Theorem 16). (An (ε, δ) ledger's ex-post filter is (ε_k, δ_k)-DP by its own sub-budget.)
   *
   * @throws IllegalStateException if the store's budget is not a one-order Rényi budget
   */
  public RenyiDp guarantee() {
    if (!(store.budget() instanceof RenyiDp r)) {
      throw new IllegalStateException("the store's budget " + store.budget()
          + " is not a Renyi DP budget; its ledger states the filter's guarantee");
    }
    return r;
  }

  /** Lemma 7 for the whole interaction: (ε + log(1/δ)/(α − 1), δ)-DP, rounded up. */
  public ApproxDp guarantee(double delta) {
    Require.openUnit("delta", delta);
    return new ApproxDp(Math.nextUp(guarantee().epsilon(0) + Math.log(1 / delta) / (alpha - 1)),
        delta);
  }

  /** What remains (rounded down). */
  public PrivacyGuarantee remaining() {
    return store.remaining();
  }

  /** The order α. */
  public double alpha() {
    return alpha;
  }
}
