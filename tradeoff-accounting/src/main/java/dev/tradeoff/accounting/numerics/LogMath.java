package dev.tradeoff.accounting.numerics;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;

/**
 * Log-space arithmetic without cancellation. Probabilities that underflow a double (binomial tails,
 * e^{-1000}) stay representable as their logarithms; every function here is accurate to a few ulps
 * over its whole domain.
 */
public final class LogMath {

  private LogMath() {}

  /** log(e^a + e^b), exact for infinite arguments. */
  public static double logAddExp(double a, double b) {
    if (a == Double.NEGATIVE_INFINITY) {
      return b;
    }
    if (b == Double.NEGATIVE_INFINITY) {
      return a;
    }
    double max = Math.max(a, b);
    if (max == Double.POSITIVE_INFINITY) {
      return max;
    }
    return max + Math.log1p(Math.exp(-Math.abs(a - b)));
  }

  /**
   * log(e^a − e^b) for a ≥ b; returns −∞ when a == b.
   *
   * @throws IllegalArgumentException if a &lt; b (the difference would be negative)
   */
  public static double logSubExp(double a, double b) {
    if (a < b) {
      throw new IllegalArgumentException("logSubExp needs a >= b, but was a=" + a + ", b=" + b);
    }
    if (b == Double.NEGATIVE_INFINITY) {
      return a;
    }
    if (a == b) {
      return Double.NEGATIVE_INFINITY;
    }
    return a + log1mExp(b - a);
  }

  /**
   * log(1 − e^x) for x ≤ 0, using the two-branch evaluation of Mächler (2012) so that neither x near
   * 0 nor x near −∞ loses precision.
   */
  public static double log1mExp(double x) {
    if (x > 0) {
      throw new IllegalArgumentException("log1mExp needs x <= 0, but was " + x);
    }
    if (x == 0) {
      return Double.NEGATIVE_INFINITY;
    }
    return x > -Math.log(2) ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
  }

  /** log Σ e^{x_i}; −∞ for an empty array. */
  public static double logSumExp(double[] values) {
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      max = Math.max(max, v);
    }
    if (max == Double.NEGATIVE_INFINITY || max == Double.POSITIVE_INFINITY) {
      return max;
    }
    double sum = 0;
    for (double v : values) {
      sum += Math.exp(v - max);
    }
    return max + Math.log(sum);
  }

  /** log C(n, k) for 0 ≤ k ≤ n, accurate for n up to 2^31 − 1. */
  public static double logBinomial(int n, int k) {
    return LogBinomialCoefficient.value(n, k);
  }

  /** log of the Binomial(n, p) probability mass at k, without forming p^k. */
  public static double logBinomialPmf(int n, int k, double p) {
    if (k < 0 || k > n) {
      return Double.NEGATIVE_INFINITY;
    }
    double logTerm = logBinomial(n, k);
    if (k > 0) {
      logTerm += k * Math.log(p);
    }
    if (n - k > 0) {
      logTerm += (n - k) * Math.log1p(-p);
    }
    return logTerm;
  }
}
