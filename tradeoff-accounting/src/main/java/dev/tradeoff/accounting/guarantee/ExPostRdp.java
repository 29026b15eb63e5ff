package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;
import java.util.function.ToDoubleFunction;

/**
 * Ex-post (α, ε̃)-Rényi differential privacy [ExPost25, Definition 6]: Σ_o Pr[M(D)=o]^α /
 * (e^{ε̃(o)} Pr[M(D′)=o])^{α−1} ≤ 1 for all neighbours.
 *
 * @param <O> the outcome type
 * @param alpha the Rényi order α &gt; 1
 * @param epsilonOfOutcome ε̃ as a function of the outcome, values in [0, exAnteEpsilon]
 * @param exAnteEpsilon sup_o ε̃(o): ex-ante the mechanism is (α, sup ε̃)-RDP
 */
public record ExPostRdp<O>(
    double alpha, ToDoubleFunction<O> epsilonOfOutcome, double exAnteEpsilon)
    implements PrivacyGuarantee {

  public ExPostRdp {
    Require.renyiOrder("alpha", alpha);
    Require.nonNull("epsilonOfOutcome", epsilonOfOutcome);
    Require.nonNegative("exAnteEpsilon", exAnteEpsilon);
  }

  /** ε̃(o), the Rényi privacy spent at order α when o is released. */
  public double epsilonOf(O outcome) {
    double e = epsilonOfOutcome.applyAsDouble(outcome);
    if (!(e >= 0 && e <= exAnteEpsilon)) {
      throw new IllegalStateException(
          "ex-post RDP epsilon of outcome "
              + outcome
              + " must be in [0, "
              + exAnteEpsilon
              + "] (the stated ex-ante bound), but was "
              + e);
    }
    return e;
  }

  /** The ex-ante (α, sup ε̃)-RDP guarantee. */
  public RenyiDp exAnte() {
    return RenyiDp.ofOrder(alpha, exAnteEpsilon);
  }

  /**
   * Lemma 7, second part: ex-post (α, ε̃)-RDP implies ex-post (ε̃′, δ)-DP with ε̃′(o) = ε̃(o) +
   * log(1/δ)/(α − 1).
   *
   * @param delta δ in (0, 1)
   */
  public ExPostDp<O> toExPostDp(double delta) {
    Require.openUnit("delta", delta);
    double shift = Math.log(1 / delta) / (alpha - 1);
    ToDoubleFunction<O> eps = epsilonOfOutcome;
    return new ExPostDp<>(o -> eps.applyAsDouble(o) + shift, exAnteEpsilon + shift, delta);
  }
}
