package dev.tradeoff.ensemble.privacy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.List;

/**
 * The result of the exact privacy verifier: the maximum of the privacy cost f of [DaRRM24, Lemma 3.4]
 * over every corner multiset of Lemma 5.1, the bound e^{mε} − 1 + 2δ it must not exceed, the slack
 * (bound − max f) and a multiset attaining the maximum.
 *
 * @param maxPrivacyCost max f (computed)
 * @param bound e^{mε} − 1 + 2δ
 * @param slack bound − max f
 * @param tolerance the bound on the floating-point error of the computed max f, which the decision
 *     allows (see {@link PrivacyVerifier#tolerance})
 * @param worstCase a maximising multiset, one entry per corner with a non-zero count
 * @param target the guarantee (mε, δ) that was verified
 */
public record PrivacyCertificate(double maxPrivacyCost, double bound, double slack,
    double tolerance, List<CornerCount> worstCase, ApproxDp target) {

  public PrivacyCertificate {
    worstCase = List.copyOf(worstCase);
  }

  /** True when slack ≥ −tolerance: DaRRM_γ is (mε, δ)-DP up to the stated evaluation tolerance. */
  public boolean isPrivate() {
    return slack >= -tolerance;
  }

  /**
   * The δ this certificate proves at mε: the true max f is at most the computed one plus the
   * tolerance, and DaRRM_γ is (mε, δ′)-DP iff max f ≤ e^{mε} − 1 + 2δ′ (Lemma 3.4), so δ′ = δ +
   * max(0, tolerance − slack)/2, rounded up. It equals δ when the slack exceeds the tolerance, is at
   * most δ + tolerance for a γ that passes, and is meaningful (below 1) for a failing γ as well.
   */
  public double certifiedDelta() {
    double excess = Math.max(0, tolerance - slack) / 2;
    return excess == 0 ? target.delta() : Math.nextUp(target.delta() + excess);
  }

  /** (mε, {@link #certifiedDelta}): the guarantee this certificate proves for a passing γ. */
  public ApproxDp certifiedGuarantee() {
    return new ApproxDp(target.epsilon(), certifiedDelta());
  }
}
