package dev.tradeoff.accounting.calibration;

import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.internal.Require;

/**
 * The analytic Gaussian mechanism (Balle and Wang 2018, "Improving the Gaussian Mechanism for
 * Differential Privacy", Theorem 8 and Algorithm 1): the smallest σ such that N(0, σ²) noise on a
 * query of L2 sensitivity Δ is exactly (ε, δ)-DP, i.e. such that
 *
 * <pre>  Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ.</pre>
 *
 * <p>The left side is the GDP profile δ_μ(ε) at μ = Δ/σ (increasing in μ), so the answer is σ =
 * Δ/μ* with μ* the largest μ meeting δ — the same root Algorithm 1 finds through its B± functions;
 * it is computed by {@link GaussianDpConversion#mu} (bisection on doubles, log-space tails, rounded
 * down) and divided with upward rounding, so the returned σ always meets (ε, δ) as evaluated.
 */
public final class AnalyticGaussian {

  private AnalyticGaussian() {}

  /**
   * The smallest σ for one release, rounded up.
   *
   * @param epsilon ε &gt; 0
   * @param delta δ in (0, 1)
   * @param sensitivity L2 sensitivity Δ &gt; 0
   */
  public static double sigma(double epsilon, double delta, double sensitivity) {
    Require.nonNegative("epsilon", epsilon);
    Require.openUnit("delta", delta);
    Require.positive("sensitivity", sensitivity);
    double mu = GaussianDpConversion.mu(epsilon, delta);
    double sigma = Math.nextUp(sensitivity / mu);
    while (GaussianDpConversion.delta(sensitivity / sigma, epsilon) > delta) {
      sigma = Math.nextUp(sigma);
    }
    return sigma;
  }
}
