package dev.tradeoff.mechanisms.gaussian;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;

/**
 * The analytic Gaussian calibration (Balle and Wang 2018, Theorem 8): N(0, σ²) noise on a query of
 * L2 sensitivity Δ is (ε, δ)-DP iff Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ.
 *
 * <p>Private stand-in for {@code dev.tradeoff.accounting.calibration.AnalyticGaussian} (branch
 * {@code rdp}), with the same contract; swap when that is on main.
 */
final class AnalyticGaussianCalibration {

  private AnalyticGaussianCalibration() {}

  /**
   * The exact continuous-Gaussian δ(ε) at μ = Δ/σ, as Φ(a)·(1 − e^{ε + logΦ(b) − logΦ(a)}) to avoid
   * cancellation (relative error a few ulps).
   */
  static double delta(double epsilon, double mu) {
    double a = -epsilon / mu + mu / 2;
    double b = -epsilon / mu - mu / 2;
    double logA = StandardNormal.logCdf(a);
    double logB = StandardNormal.logCdf(b);
    return Math.exp(logA) * -Math.expm1(epsilon + logB - logA);
  }

  /**
   * The smallest σ (up to a relative 1e−12, rounded up) with δ(ε) ≤ δ·(1 − 1e−9); the margin
   * absorbs the evaluation error of {@link #delta}, so the result meets (ε, δ) exactly.
   */
  static double sigma(double epsilon, double delta, double sensitivity) {
    Require.positive("epsilon", epsilon);
    Require.openUnit("delta", delta);
    Require.positive("sensitivity", sensitivity);
    double target = delta * (1 - 1e-9);
    double lo = 1e-12; // δ(μ) at μ = 1e-12 is far below any double δ
    double hi = 1;
    while (delta(epsilon, hi) <= target) {
      lo = hi;
      hi *= 2;
    }
    while (delta(epsilon, lo) > target) {
      hi = lo;
      lo /= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-13 * lo; i++) {
      double mid = (lo + hi) / 2;
      if (delta(epsilon, mid) <= target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double sigma = Math.nextUp(sensitivity / lo);
    return sigma;
  }
}
