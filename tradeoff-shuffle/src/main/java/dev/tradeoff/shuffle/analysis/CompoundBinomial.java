package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;

/**
 * The compound binomial C of [ShuffleGDP21, Definition 3.1]: C ~ Bin(s, 1/2) with s ~ Bin(n, λ/n),
 * the number of fair coins that come up 1 in P^{0/1}_{n,λ}. Binomial thinning gives
 * C ~ Bin(n, λ/(2n)) exactly; {@link #logPmfByDefinition(int)} evaluates the double sum of
 * Definition 3.1 so that the identity can be checked, and the distribution functions use the
 * closed form. All masses are computed in log space (n up to 10^7); F and 1 − F are both
 * accumulated from their own tail so that neither loses relative precision.
 */
public final class CompoundBinomial {

  private final int n;
  private final double lambda;
  private final double[] cdf;
  private final double[] survival;

  public CompoundBinomial(ShuffleParameters parameters) {
    Require.nonNull("parameters", parameters);
    this.n = parameters.users();
    this.lambda = parameters.lambda();
    double p = parameters.flipProbability();
    double[] pmf = new double[n + 1];
    for (int k = 0; k <= n; k++) {
      pmf[k] = Math.exp(LogMath.logBinomialPmf(n, k, p));
    }
    cdf = new double[n + 1];
    survival = new double[n + 2];
    double acc = 0;
    for (int k = 0; k <= n; k++) {
      acc += pmf[k];
      cdf[k] = Math.min(1, acc);
    }
    acc = 0;
    for (int k = n; k >= 0; k--) {
      acc += pmf[k];
      survival[k] = Math.min(1, acc);
    }
  }

  /** log P(C = k) from the closed form Bin(n, λ/(2n)). */
  public double logPmf(int k) {
    return LogMath.logBinomialPmf(n, k, lambda / (2.0 * n));
  }

  /**
   * log P(C = k) by the double sum of Definition 3.1, Σ_{l ≥ k} C(l, k) C(n, l) (λ/(2n))^l
   * (1 − λ/n)^{n−l}, summed in log space.
   */
  public double logPmfByDefinition(int k) {
    if (k < 0 || k > n) {
      return Double.NEGATIVE_INFINITY;
    }
    double logHalfRate = Math.log(lambda / (2.0 * n));
    double logKeep = Math.log1p(-lambda / n);
    double[] terms = new double[n - k + 1];
    for (int l = k; l <= n; l++) {
      terms[l - k] = LogMath.logBinomial(l, k) + LogMath.logBinomial(n, l) + l * logHalfRate
          + (n - l) * logKeep;
    }
    return LogMath.logSumExp(terms);
  }

  /** F_λ(k) = P(C ≤ k); 0 below 0 and 1 from n on. */
  public double cdf(int k) {
    if (k < 0) {
      return 0;
    }
    return k >= n ? 1 : cdf[k];
  }

  /** 1 − F_λ(k) = P(C &gt; k), accumulated from the upper tail. */
  public double survival(int k) {
    if (k < 0) {
      return 1;
    }
    return k >= n ? 0 : survival[k + 1];
  }

  /**
   * The generalized inverse F_λ⁻¹(α) = min{k ∈ {0, …, n} : F_λ(k) ≥ α} (the left-continuous
   * quantile). This is the convention under which Theorem 2 reproduces the values quoted for
   * (n, λ) = (100, 58).
   */
  public int quantile(double alpha) {
    Require.probability("alpha", alpha);
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf(mid) >= alpha) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  public int users() {
    return n;
  }
}
