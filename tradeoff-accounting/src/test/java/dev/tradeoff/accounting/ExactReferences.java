package dev.tradeoff.accounting;

import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.function.DoubleUnaryOperator;

/**
 * Exact privacy profiles evaluated independently of the accountants, in log space, as references
 * for tests: μ-GDP (Dong, Roth and Su 2022, Cor. 2.13), k-fold binary randomized response (the
 * exact composition of pure ε0-DP, Kairouz, Oh and Viswanath 2015) and the discrete Gaussian.
 */
public final class ExactReferences {

  private ExactReferences() {}

  /** μ-GDP: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), in log space. */
  public static double gdpDelta(double mu, double epsilon) {
    double a = StandardNormal.logCdf(-epsilon / mu + mu / 2);
    double b = epsilon + StandardNormal.logCdf(-epsilon / mu - mu / 2);
    return b >= a ? 0 : Math.exp(LogMath.logSubExp(a, b));
  }

  /**
   * k-fold binary randomized response with parameter ε0: with i of the k answers flipped the loss
   * is (k − 2i)ε0, so δ(ε) = Σ_{(k−2i)ε0 > ε} C(k, i) p^{k−i}(1 − p)^i (1 − e^{ε − (k−2i)ε0}),
   * p = e^{ε0}/(1 + e^{ε0}), summed in log space.
   */
  public static double binaryRrDelta(double eps0, int k, double epsilon) {
    double logP = -Math.log1p(Math.exp(-eps0));
    double logNotP = -eps0 + logP;
    double logDelta = Double.NEGATIVE_INFINITY;
    for (int i = 0; i <= k; i++) {
      double loss = (k - 2.0 * i) * eps0;
      if (!(loss > epsilon)) {
        break;
      }
      double logTerm = LogMath.logBinomial(k, i) + (k - i) * logP + i * logNotP
          + LogMath.log1mExp(epsilon - loss);
      logDelta = LogMath.logAddExp(logDelta, logTerm);
    }
    return Math.exp(logDelta);
  }

  /**
   * The discrete Gaussian N_Z(0, σ²) against N_Z(1, σ²) (Canonne, Kamath and Steinke 2020):
   * outcome z has loss (1 − 2z)/(2σ²); δ(ε) = Σ_z P(z)(1 − e^{ε − loss(z)})₊, summed over
   * |z| ≤ 40σ + 2 (the rest is below e^{−800}).
   */
  public static double discreteGaussianDelta(double sigma, double epsilon) {
    double twoVar = 2 * sigma * sigma;
    long reach = (long) Math.ceil(40 * sigma) + 2;
    double[] logWeights = new double[(int) (2 * reach + 1)];
    for (long z = -reach; z <= reach; z++) {
      logWeights[(int) (z + reach)] = -(double) z * z / twoVar;
    }
    double logNormalizer = LogMath.logSumExp(logWeights);
    double logDelta = Double.NEGATIVE_INFINITY;
    for (long z = -reach; z <= reach; z++) {
      double loss = (1 - 2.0 * z) / twoVar;
      if (loss > epsilon) {
        double logTerm = logWeights[(int) (z + reach)] - logNormalizer
            + LogMath.log1mExp(epsilon - loss);
        logDelta = LogMath.logAddExp(logDelta, logTerm);
      }
    }
    return Math.exp(logDelta);
  }

  /**
   * The smallest ε ≥ 0 with δ(ε) ≤ δ for a non-increasing exact δ(·), by bisection to a relative
   * width of 1e-13 (returns the upper end, so δ(ε) ≤ δ holds at the returned value).
   */
  public static double epsilon(DoubleUnaryOperator exactDelta, double delta) {
    if (exactDelta.applyAsDouble(0) <= delta) {
      return 0;
    }
    double hi = 1;
    while (exactDelta.applyAsDouble(hi) > delta) {
      hi *= 2;
    }
    double lo = 0;
    while (hi - lo > 1e-13 * hi) {
      double mid = 0.5 * (lo + hi);
      if (exactDelta.applyAsDouble(mid) > delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * e^x for x ≥ 0 at the given precision (less about log10 of the squarings' count of digits): the
   * Taylor series at x/2^s ≤ 1, then s squarings.
   */
  public static BigDecimal exp(BigDecimal x, MathContext precision) {
    int squarings = 0;
    BigDecimal reduced = x;
    while (reduced.compareTo(BigDecimal.ONE) > 0) {
      reduced = reduced.divide(BigDecimal.valueOf(2), precision);
      squarings++;
    }
    BigDecimal sum = BigDecimal.ONE;
    BigDecimal term = BigDecimal.ONE;
    for (int n = 1; n < 1000; n++) {
      term = term.multiply(reduced, precision).divide(BigDecimal.valueOf(n), precision);
      sum = sum.add(term, precision);
      if (term.signum() == 0 || term.compareTo(sum.ulp()) < 0) {
        break;
      }
    }
    for (int s = 0; s < squarings; s++) {
      sum = sum.multiply(sum, precision);
    }
    return sum;
  }
}
