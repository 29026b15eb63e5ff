package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * Approximate (ε, δ)-differential privacy: Pr[M(D) ∈ S] ≤ e^ε Pr[M(D′) ∈ S] + δ for all S and
 * neighbours D, D′ [ExPost25, Definition 3].
 *
 * @param epsilon ε ≥ 0
 * @param delta δ in [0, 1)
 */
public record ApproxDp(double epsilon, double delta) implements PrivacyGuarantee {

  public ApproxDp {
    Require.nonNegative("epsilon", epsilon);
    Require.delta("delta", delta);
  }

  /** True when δ = 0, i.e. this is a pure-DP guarantee. */
  public boolean isPure() {
    return delta == 0;
  }
}
