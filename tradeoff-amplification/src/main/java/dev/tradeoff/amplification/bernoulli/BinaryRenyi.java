package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;

/**
 * The binary, symmetric Rényi divergence r_α(p) of Definition 2 [BernAmp21]: the Rényi
 * divergence of order α between Bern(p) and Bern(1 − p),
 *
 * <pre>r_α(p) = log(p^α (1 − p)^{1−α} + (1 − p)^α p^{1−α}) / (α − 1),</pre>
 *
 * and its inverse p(ε) on (0, 1/2]. Both work on log p, so p = e^{−1000} (which r_α maps to about
 * ε = 1000) is as easy as p = 0.3.
 *
 * <p>Accuracy: near p = 1/2 the sum is evaluated as 1 + p·expm1(−(α−1)ρ) + (1−p)·expm1((α−1)ρ) with
 * ρ = log((1−p)/p), so r_α keeps a relative accuracy of about 1e-16/ρ (1e-12 at ε ≈ 1e-6·α);
 * elsewhere it is accurate to a few ulps.
 */
public final class BinaryRenyi {

  private BinaryRenyi() {}

  /**
   * r_α(p) of Definition 2 for p ∈ [0, 1]; +∞ at p ∈ {0, 1}.
   *
   * @throws IllegalArgumentException if α ≤ 1 or p is outside [0, 1]
   */
  public static double r(double alpha, double p) {
    Require.renyiOrder("alpha", alpha);
    Require.probability("p", p);
    if (p == 0 || p == 1) {
      return Double.POSITIVE_INFINITY;
    }
    return logSum(alpha, Math.log(p), Math.log1p(-p)) / (alpha - 1);
  }

  /** r_α(p) from log p (log p ≤ 0); +∞ for log p ∈ {−∞, 0}. Inputs are trusted. */
  static double rFromLog(double alpha, double logP) {
    if (logP == Double.NEGATIVE_INFINITY || logP == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return logSum(alpha, logP, LogMath.log1mExp(logP)) / (alpha - 1);
  }

  /** log(p^α q^{1−α} + q^α p^{1−α}) with p, q = 1 − p given by their logarithms. */
  private static double logSum(double alpha, double logP, double logQ) {
    double t = (alpha - 1) * (logQ - logP);
    if (Math.abs(t) < 1) {
      double p = Math.exp(logP);
      return Math.log1p(p * Math.expm1(-t) + (1 - p) * Math.expm1(t));
    }
    return LogMath.logAddExp(
        alpha * logP + (1 - alpha) * logQ, alpha * logQ + (1 - alpha) * logP);
  }

  /**
   * log p(ε): the logarithm of the unique p ∈ (0, 1/2] with r_α(p) = ε (r_α decreases from +∞ to 0
   * on that interval). Solved by bisection on log p to the last bit, rounding towards 1/2 so that
   * r_α(p) ≤ ε: a pair (3)–(4) built from this p is (α, ε)-RDP, never more.
   *
   * @throws IllegalArgumentException if α ≤ 1 or ε is not &gt; 0 and finite
   */
  public static double logPForEpsilon(double alpha, double epsilon) {
    Require.renyiOrder("alpha", alpha);
    Require.positive("epsilon", epsilon);
    // Bracket from (α−1)r ∈ [−(α−1)log p + α log(1−p), log 2 − (α−1)log p] and log(1 − p) ≥ −log 2.
    double lo = -epsilon - alpha / (alpha - 1) * Math.log(2) - 1;
    double hi = Math.min(-Math.log(2), -epsilon + Math.log(2) / (alpha - 1));
    // invariant: r(lo) > ε ≥ r(hi); hi moves only to points with r ≤ ε
    for (int i = 0; i < 2000; i++) {
      double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) {
        break;
      }
      if (rFromLog(alpha, mid) > epsilon) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * p(ε) = exp({@link #logPForEpsilon}); underflows to 0 for ε beyond about 745, where callers
   * should keep the logarithm.
   */
  public static double pForEpsilon(double alpha, double epsilon) {
    return Math.exp(logPForEpsilon(alpha, epsilon));
  }
}
