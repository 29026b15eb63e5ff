package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.numerics.StandardNormal;

/**
 * The privacy profile of μ-GDP (Chen and Long, Corollary 2.5; Balle and Wang 2018):
 * δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2). Each term is formed from log Φ so that neither
 * underflows; the difference is exact up to cancellation (relative error ≲ 1e−12 for δ ≥ 1e−15·
 * Φ(−ε/μ + μ/2)). Kept local to this module until the accounting module's GDP conversion is
 * merged.
 */
record GaussianDpProfile(double mu) implements PrivacyProfile {

  GaussianDpProfile {
    Require.nonNegative("mu", mu);
  }

  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    if (mu == 0) {
      return 0;
    }
    if (Double.isInfinite(mu)) {
      return 1;
    }
    double a = StandardNormal.logCdf(-epsilon / mu + mu / 2);
    double b = epsilon + StandardNormal.logCdf(-epsilon / mu - mu / 2);
    return b >= a ? 0 : Math.exp(a) * -Math.expm1(b - a);
  }
}
