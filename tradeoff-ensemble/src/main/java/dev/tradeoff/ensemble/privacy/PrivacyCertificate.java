package dev.tradeoff.ensemble.privacy;

import java.util.List;

/**
 * The result of the exact privacy verifier: the maximum of the privacy cost f of [DaRRM24, Lemma 3.4]
 * over every corner multiset of Lemma 5.1, the bound e^{mε} − 1 + 2δ it must not exceed, the slack
 * (bound − max f) and a multiset attaining the maximum.
 *
 * @param maxPrivacyCost max f
 * @param bound e^{mε} − 1 + 2δ
 * @param slack bound − max f
 * @param tolerance the floating-point tolerance the decision allows (see {@link
 *     PrivacyVerifier#tolerance})
 * @param worstCase a maximising multiset, one entry per corner with a non-zero count
 */
public record PrivacyCertificate(double maxPrivacyCost, double bound, double slack,
    double tolerance, List<CornerCount> worstCase) {

  public PrivacyCertificate {
    worstCase = List.copyOf(worstCase);
  }

  /** True when slack ≥ −tolerance: DaRRM_γ is (mε, δ)-DP up to the stated evaluation tolerance. */
  public boolean isPrivate() {
    return slack >= -tolerance;
  }
}
