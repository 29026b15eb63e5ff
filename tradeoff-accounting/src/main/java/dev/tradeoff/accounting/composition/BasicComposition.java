package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.List;

/**
 * Basic ("simple") composition: the adaptive composition of (ε_l, δ_l)-DP mechanisms is
 * (Σ ε_l, Σ δ_l)-DP (Dwork, Kenthapadi, McSherry, Mironov and Naor 2006; [DaRRM24, Theorem
 * 2.2, for k identical mechanisms: (kε, kδ)).
 *
 * <p>Rounding: both sums are rounded up by a relative margin covering their floating-point error.
 * A δ sum that reaches 1 is capped at the largest double below 1 (the statement is then vacuous but
 * still true: the exact worst-case δ at Σε, 1 − Π(1 − δ_l) from Kairouz–Oh–Viswanath Theorem 3.3,
 * is below that cap); if even 1 − Π(1 − δ_l) rounds to 1 the composition is refused.
 */
public final class BasicComposition {

  private BasicComposition() {}

  /**
   * k-fold basic composition of one (ε, δ) guarantee: (kε, kδ).
   *
   * @param perMechanism the guarantee of each mechanism
   * @param count k ≥ 1
   */
  public static ApproxDp compose(ApproxDp perMechanism, int count) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("count", count);
    return compose(GuaranteeSequence.homogeneous(perMechanism, count));
  }

  /** Heterogeneous basic composition of a non-empty sequence: (Σ ε_l, Σ δ_l). */
  public static ApproxDp compose(List<ApproxDp> guarantees) {
    return compose(GuaranteeSequence.of(guarantees));
  }

  static ApproxDp compose(GuaranteeSequence sequence) {
    double epsilon = RoundoffMargin.up(sequence.sumEpsilon(), sequence.termCount());
    double delta = RoundoffMargin.up(sequence.sumDelta(), sequence.termCount());
    if (delta >= 1) {
      if (-Math.expm1(sequence.logNoFailure()) >= 1) {
        throw new IllegalArgumentException(
            "composed delta must be < 1, but was 1 - prod(1 - delta_l) = 1 in double precision");
      }
      delta = Math.nextDown(1.0);
    }
    return new ApproxDp(epsilon, delta);
  }
}
