package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;

/**
 * Amplification by shuffling for an arbitrary ε₀-LDP local randomizer, the numerical bound of
 * Feldman, McMillan and Talwar, "Hiding among the clones" (FOCS 2021), Theorem 3.2 and its
 * numerical evaluation: the shuffled output of n users is (ε, δ(ε))-DP with δ(ε) the
 * hockey-stick divergence E_{e^ε} between
 * P = (A + Δ, C − A + 1 − Δ) and Q = (A + 1 − Δ, C − A + Δ), where C ~ Bin(n − 1, e^{−ε₀}),
 * A | C ~ Bin(C, 1/2) and Δ ~ Ber(e^{ε₀}/(e^{ε₀} + 1)). Tradeoff uses it as the generic
 * comparison: it knows only ε₀ of R_{n,λ}, not the protocol.
 *
 * <p>Given C = c the second coordinate is c + 1 minus the first, so
 * δ(ε) = Σ_c P(C = c) Σ_a max(0, P_c(a) − e^ε Q_c(a)) with P_c(a) = (1 − q) B_c(a) + q B_c(a − 1),
 * Q_c(a) = q B_c(a) + (1 − q) B_c(a − 1), q = e^{ε₀}/(e^{ε₀} + 1), B_c = Bin(c, 1/2); the maximum of
 * both orders is taken. Binomial masses are formed in log space and truncated below
 * 1e−30/(m + 1); every dropped mass is added to δ (safe direction). Cost per δ(ε): about
 * 26²·√(n e^{−ε₀})·… multiply-adds, a few 10^7 for n = 10^5.
 *
 * @param users n ≥ 2
 * @param localEpsilon ε₀ &gt; 0 of the local randomizer
 */
public record FeldmanMcMillanTalwar(int users, double localEpsilon) implements PrivacyProfile {

  private static final double TAIL = 1e-30;

  public FeldmanMcMillanTalwar {
    Require.that(users >= 2, "users", "must be >= 2", users);
    Require.positive("localEpsilon", localEpsilon);
  }

  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double q = 1 / (1 + Math.exp(-localEpsilon));
    TruncatedBinomial clones = TruncatedBinomial.of(users - 1, Math.exp(-localEpsilon), TAIL);
    double e = Math.exp(epsilon);
    double total = clones.missingMassBound();
    double[] cMass = clones.mass();
    for (int i = 0; i < cMass.length; i++) {
      int c = clones.offset() + i;
      TruncatedBinomial b = TruncatedBinomial.of(c, 0.5, TAIL);
      double[] bm = b.mass();
      double forward = 0;
      double backward = 0;
      for (int j = 0; j <= bm.length; j++) {
        double bA = j < bm.length ? bm[j] : 0;
        double bPrev = j > 0 ? bm[j - 1] : 0;
        double pc = (1 - q) * bA + q * bPrev;
        double qc = q * bA + (1 - q) * bPrev;
        forward += Math.max(0, pc - e * qc);
        backward += Math.max(0, qc - e * pc);
      }
      total += cMass[i] * (Math.max(forward, backward) + b.missingMassBound());
    }
    return Math.min(1, total);
  }
}
