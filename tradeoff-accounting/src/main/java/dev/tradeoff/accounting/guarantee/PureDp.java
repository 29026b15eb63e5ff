package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * Pure ε-differential privacy (Dwork et al. 2006): Pr[M(D) ∈ S] ≤ e^ε Pr[M(D′) ∈ S] for all S and
 * neighbours D, D′. [ExPost25, Definition 1].
 *
 * @param epsilon ε ≥ 0
 */
public record PureDp(double epsilon) implements PrivacyGuarantee {

  public PureDp {
    Require.nonNegative("epsilon", epsilon);
  }

  /** The same guarantee read as (ε, 0)-DP. */
  public ApproxDp toApproxDp() {
    return new ApproxDp(epsilon, 0);
  }
}
