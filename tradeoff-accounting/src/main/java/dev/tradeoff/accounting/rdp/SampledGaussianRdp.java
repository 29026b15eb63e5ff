package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;

/**
 * Rényi DP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019, "Rényi
 * Differential Privacy of the Sampled Gaussian Mechanism"), under add/remove-one neighbouring, for
 * sampling rate q and noise σ on a sensitivity-1 query.
 *
 * <p>With μ₀ = N(0, σ²), μ₁ = N(1, σ²) and the mixture μ = (1 − q)μ₀ + qμ₁, the paper shows (its
 * Section 3: of the two directions, D_α(μ‖μ₀) dominates D_α(μ₀‖μ)) that the RDP at order α is
 * D_α(μ‖μ₀) = log(A_α)/(α − 1) with A_α =
 * E_{z∼μ₀}[((1 − q) + q μ₁(z)/μ₀(z))^α]. A_α is evaluated exactly:
 *
 * <ul>
 *   <li>integer α (Section 3.2): the binomial expansion A_α = Σ_{k=0}^{α} C(α, k) (1 − q)^{α−k}
 *       q^k exp((k² − k)/(2σ²)), every term positive, summed in log space;
 *   <li>fractional α (Section 3.3): split the integral at z₀ = σ² log(1/q − 1) + 1/2, where (1 − q)μ₀
 *       = qμ₁, and expand each side in the generalized binomial series that converges there:
 *       <pre>
 *   A_α = Σ_{k≥0} C(α, k) (1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} Φ((z₀ − k)/σ)
 *       + Σ_{k≥0} C(α, k) q^{α−k} (1−q)^k e^{((α−k)²−(α−k))/(2σ²)} Φ((α − k − z₀)/σ)</pre>
 *       (μ₀ (μ₁/μ₀)^j = e^{(j²−j)/(2σ²)} N(j, σ²)). Generalized coefficients change sign past k =
 *       α, so positive and negative terms are summed separately in log space and subtracted once.
 *       The series is cut when a term falls 30 nats below the running sum, and the magnitude of the
 *       last term is added (past k = α the series alternates with decreasing terms, so its tail is
 *       bounded by that term): truncation rounds up, by at most about 2e−13 relative in A_α.
 * </ul>
 *
 * Accuracy: integer orders, relative error of ε(α) a few ulps; fractional orders, an upward bias of
 * at most about 2e−13/(α − 1) absolute from truncation plus rounding of about 1e−16/(α − 1) (log
 * A_α is formed from sums near 1).
 */
public final class SampledGaussianRdp {

  /**
   * The series stops once a term is this many nats below the running sum (e^{−30} ≈ 9e−14). Near
   * α = 1 with q &gt; 1/2 the terms decay only like k^{−α−2}, so a few thousand terms are needed.
   */
  private static final double TRUNCATION_NATS = 30;

  private static final int MAX_TERMS = 1_000_000;

  private SampledGaussianRdp() {}

  /**
   * ε(α) of the Poisson-subsampled Gaussian.
   *
   * @param q sampling probability in [0, 1]
   * @param sigma noise σ &gt; 0
   * @param alpha order α &gt; 1
   */
  public static double epsilon(double q, double sigma, double alpha) {
    Require.probability("q", q);
    Require.positive("sigma", sigma);
    Require.renyiOrder("alpha", alpha);
    if (q == 0) {
      return 0;
    }
    if (q == 1) {
      return MechanismRdp.gaussian(sigma, alpha);
    }
    double logA =
        isInteger(alpha) ? logAInteger(q, sigma, (int) alpha) : logAFractional(q, sigma, alpha);
    return Math.max(0, logA / (alpha - 1));
  }

  static boolean isInteger(double alpha) {
    return alpha == Math.rint(alpha) && alpha <= Integer.MAX_VALUE - 1;
  }

  /**
   * log A_α for integer α ≥ 2 (MTZ19 Section 3.2). Because the binomial weights sum to 1, A_α − 1 =
   * Σ_{k=2}^{α} C(α, k)(1 − q)^{α−k} q^k (e^{(k²−k)/(2σ²)} − 1) (the k = 0, 1 terms vanish), a sum of
   * positive terms; log A_α = log1p(A_α − 1) is then accurate to a few ulps relative even when
   * ε(α) is tiny.
   */
  static double logAInteger(double q, double sigma, int alpha) {
    double twoSigmaSq = 2 * sigma * sigma;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double[] terms = new double[alpha - 1];
    // log C(α, k), updated by C(α, k+1) = C(α, k)(α − k)/(k + 1); re-anchored at exact values
    // every 64 steps so that rounding does not accumulate over thousands of terms.
    double logCoef = LogMath.logBinomial(alpha, 2);
    for (int k = 2; k <= alpha; k++) {
      if ((k & 63) == 0) {
        logCoef = LogMath.logBinomial(alpha, k);
      }
      double c = ((double) k * k - k) / twoSigmaSq;
      double logExpm1 = c > 40 ? c : c + LogMath.log1mExp(-c);
      terms[k - 2] = logCoef + k * logQ + (alpha - k) * log1mQ + logExpm1;
      logCoef += Math.log((double) (alpha - k) / (k + 1));
    }
    return LogMath.logAddExp(0, LogMath.logSumExp(terms));
  }

  /** log A_α for fractional α (MTZ19 Section 3.3). */
  static double logAFractional(double q, double sigma, double alpha) {
    double twoSigmaSq = 2 * sigma * sigma;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double z0 = sigma * sigma * (Math.log(1 / q - 1)) + 0.5;
    double logPos = Double.NEGATIVE_INFINITY;
    double logNeg = Double.NEGATIVE_INFINITY;
    double logAbsCoef = 0; // log |C(α, 0)|
    int sign = 1;
    for (int k = 0; k < MAX_TERMS; k++) {
      double j = alpha - k;
      double logS0 =
          logAbsCoef
              + (alpha - k) * log1mQ
              + k * logQ
              + ((double) k * k - k) / twoSigmaSq
              + StandardNormal.logCdf((z0 - k) / sigma);
      double logS1 =
          logAbsCoef
              + j * logQ
              + k * log1mQ
              + (j * j - j) / twoSigmaSq
              + StandardNormal.logCdf((j - z0) / sigma);
      double logTerm = LogMath.logAddExp(logS0, logS1);
      if (sign > 0) {
        logPos = LogMath.logAddExp(logPos, logTerm);
      } else {
        logNeg = LogMath.logAddExp(logNeg, logTerm);
      }
      if (k > alpha && logTerm < logPos - TRUNCATION_NATS) {
        // bound the remaining alternating tail by the last term, rounding up
        logPos = LogMath.logAddExp(logPos, logTerm);
        return logNeg >= logPos ? Double.NEGATIVE_INFINITY : LogMath.logSubExp(logPos, logNeg);
      }
      // C(α, k+1) = C(α, k) (α − k)/(k + 1)
      logAbsCoef += Math.log(Math.abs(alpha - k)) - Math.log(k + 1.0);
      if (alpha - k < 0) {
        sign = -sign;
      }
    }
    throw new ArithmeticException(
        "the sampled-Gaussian series at alpha=" + alpha + ", q=" + q + ", sigma=" + sigma
            + " did not converge in " + MAX_TERMS + " terms");
  }
}
