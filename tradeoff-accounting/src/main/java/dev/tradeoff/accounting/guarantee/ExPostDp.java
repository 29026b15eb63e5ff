package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;
import java.util.function.ToDoubleFunction;

/**
 * Ex-post (ε̃, δ)-differential privacy (Wu et al. 2019; [ExPost25, Definitions 2 and 5]): the
 * privacy spent depends on the released outcome o, Σ_{o∈S} Pr[M(D)=o] ≤ Σ_{o∈S} e^{ε̃(o)}
 * Pr[M(D′)=o] + δ. With δ = 0 this is ex-post pure DP.
 *
 * <p>The ex-ante bound sup_o ε̃(o) is part of the value: a mechanism states it, and
 * {@link #epsilonOf(Object)} refuses any outcome whose ε̃ would exceed it. Ex-ante, the mechanism is
 * (sup ε̃, δ)-DP.
 *
 * @param <O> the outcome type
 * @param epsilonOfOutcome ε̃ as a function of the outcome, values in [0, exAnteEpsilon]
 * @param exAnteEpsilon sup_o ε̃(o), ≥ 0 and finite
 * @param delta δ in [0, 1)
 */
public record ExPostDp<O>(ToDoubleFunction<O> epsilonOfOutcome, double exAnteEpsilon, double delta)
    implements PrivacyGuarantee {

  public ExPostDp {
    Require.nonNull("epsilonOfOutcome", epsilonOfOutcome);
    Require.nonNegative("exAnteEpsilon", exAnteEpsilon);
    Require.delta("delta", delta);
  }

  /** Ex-post pure DP (δ = 0), Definition 2. */
  public static <O> ExPostDp<O> pure(ToDoubleFunction<O> epsilonOfOutcome, double exAnteEpsilon) {
    return new ExPostDp<>(epsilonOfOutcome, exAnteEpsilon, 0);
  }

  /** ε̃(o), the privacy spent when o is released. */
  public double epsilonOf(O outcome) {
    double e = epsilonOfOutcome.applyAsDouble(outcome);
    if (!(e >= 0 && e <= exAnteEpsilon)) {
      throw new IllegalStateException(
          "ex-post epsilon of outcome "
              + outcome
              + " must be in [0, "
              + exAnteEpsilon
              + "] (the stated ex-ante bound), but was "
              + e);
    }
    return e;
  }

  /** The ex-ante guarantee (sup_o ε̃(o), δ) that every ex-post guarantee implies. */
  public ApproxDp exAnte() {
    return new ApproxDp(exAnteEpsilon, delta);
  }

  /**
   * Lemma 7, first part: ex-post ε̃-DP implies ex-post (α, ε̃)-RDP at every order α &gt; 1. Only
   * ex-post pure DP converts.
   */
  public ExPostRdp<O> toExPostRdp(double alpha) {
    if (delta != 0) {
      throw new IllegalArgumentException(
          "delta must be 0 to convert ex-post DP to ex-post RDP (Lemma 7), but was " + delta);
    }
    return new ExPostRdp<>(alpha, epsilonOfOutcome, exAnteEpsilon);
  }
}
