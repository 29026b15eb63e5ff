package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.function.Supplier;

/**
 * The privacy filter for ex-post Rényi DP (ex-post paper, Algorithm 4 and Theorem 16), at one order
 * α with total budget ε: request i, with ex-post (α, ε̃_i)-RDP, is admitted only if Σ_{j&lt;i}
 * ε̃_j(o_j) + sup_o ε̃_i(o) ≤ ε; the realised ε̃_i(o_i) is then charged. By Theorem 16 the whole
 * interaction is ex-ante (α, ε)-RDP, and by Lemma 7 (with a constant ε̃) (ε + log(1/δ)/(α − 1),
 * δ)-DP.
 *
 * <p>Ex-post pure-DP requests enter through Lemma 7's first part (ε̃-DP ⇒ (α, ε̃)-RDP). Failure
 * handling is that of {@link PureDpFilter}.
 */
public final class RenyiFilter {

  private final double alpha;
  private final Charge budget;
  private final BudgetStore store;

  /**
   * @param alpha the order α &gt; 1
   * @param budget total RDP ε &gt; 0 at α
   * @param store where spent budget is kept
   */
  public RenyiFilter(double alpha, double budget, BudgetStore store) {
    this.alpha = Require.renyiOrder("alpha", alpha);
    this.budget = Charge.ofEpsilon(Require.positive("budget", budget));
    this.store = Require.nonNull("store", store);
  }

  /**
   * Runs {@code mechanism} if sup ε̃ fits, charging ε̃(o).
   *
   * @throws IllegalArgumentException if the guarantee's order is not this filter's α
   * @throws BudgetExceededException if it does not fit (nothing runs)
   */
  public <O> O answer(String description, ExPostRdp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    Require.that(guarantee.alpha() == alpha, "guarantee alpha", "must equal the filter order " + alpha, guarantee.alpha());
    return Admission.admit(
        store,
        budget,
        description,
        Charge.ofEpsilon(guarantee.exAnteEpsilon()),
        mechanism,
        o -> Charge.ofEpsilon(guarantee.epsilonOf(o)));
  }

  /** An ex-post pure-DP request (Lemma 7, first part). */
  public <O> O answer(String description, ExPostDp<O> guarantee, Supplier<O> mechanism) {
    Require.nonNull("guarantee", guarantee);
    return answer(description, guarantee.toExPostRdp(alpha), mechanism);
  }

  /** The ex-ante guarantee of everything this filter admits: (α, ε)-RDP (Theorem 16). */
  public RenyiDp guarantee() {
    return RenyiDp.ofOrder(alpha, budget.epsilon());
  }

  /** Lemma 7 for the whole interaction: (ε + log(1/δ)/(α − 1), δ)-DP, rounded up. */
  public ApproxDp guarantee(double delta) {
    Require.openUnit("delta", delta);
    double eps = budget.epsilon() + Math.log(1 / delta) / (alpha - 1);
    return new ApproxDp(Math.nextUp(eps), delta);
  }

  /** What remains (rounded down). */
  public Charge remaining() {
    return budget.minusFloorZero(store.spent());
  }

  /** The order α. */
  public double alpha() {
    return alpha;
  }
}
