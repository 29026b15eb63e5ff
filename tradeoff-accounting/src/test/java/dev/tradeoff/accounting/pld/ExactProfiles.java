package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;

/** Closed-form privacy profiles used as references in the PLD tests, all in log space. */
final class ExactProfiles {

  private ExactProfiles() {}

  /**
   * μ-GDP: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle and Wang 2018; [ShuffleGDP21,
   * Cor. 2.5]).
   */
  static double gaussianDelta(double mu, double epsilon) {
    double a = StandardNormal.logCdf(-epsilon / mu + mu / 2);
    double b = epsilon + StandardNormal.logCdf(-epsilon / mu - mu / 2);
    return Math.exp(LogMath.logSubExp(a, Math.min(a, b)));
  }

  /** The ε with gaussianDelta(μ, ε) = δ, by 200 steps of bisection. */
  static double gaussianEpsilon(double mu, double delta) {
    double lo = 0;
    double hi = 1;
    while (gaussianDelta(mu, hi) > delta) {
      hi *= 2;
    }
    for (int i = 0; i < 200; i++) {
      double mid = 0.5 * (lo + hi);
      if (gaussianDelta(mu, mid) > delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * k-fold k-ary randomized response with parameter ε0 and m categories: with a outcomes equal to
   * the first dataset's value and b equal to the second's, the loss is (a − b)ε0 and
   * δ(ε) = Σ_{(a−b)ε0 > ε} P(a, b)(1 − e^{ε − (a−b)ε0}), P multinomial, summed in log space.
   */
  static double randomizedResponseDelta(double eps0, int categories, int k, double epsilon) {
    double logNorm = Math.log(Math.exp(eps0) + categories - 1);
    double logTruth = eps0 - logNorm;
    double logOther = -logNorm;
    double logRest = categories > 2 ? Math.log(categories - 2.0) - logNorm : Double.NEGATIVE_INFINITY;
    double logDelta = Double.NEGATIVE_INFINITY;
    for (int a = 0; a <= k; a++) {
      for (int b = 0; a + b <= k; b++) {
        int rest = k - a - b;
        if (rest > 0 && categories == 2) {
          continue;
        }
        double loss = (a - b) * eps0;
        if (loss <= epsilon) {
          continue;
        }
        double logP =
            LogMath.logBinomial(k, a)
                + LogMath.logBinomial(k - a, b)
                + a * logTruth
                + b * logOther
                + (rest > 0 ? rest * logRest : 0);
        logDelta = LogMath.logAddExp(logDelta, logP + LogMath.log1mExp(epsilon - loss));
      }
    }
    return Math.exp(logDelta);
  }
}
