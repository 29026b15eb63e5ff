package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.conversion.PureDpConversion;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;

/**
 * Exact Rényi divergences (or the standard upper bounds, where stated) of the basic noise
 * mechanisms on a sensitivity-1 query, at one order α &gt; 1. Each value is the worst case over both
 * neighbouring directions; the mechanisms below are symmetric, so the relation does not matter.
 */
public final class MechanismRdp {

  private MechanismRdp() {}

  /** Gaussian mechanism N(0, σ²): D_α = α/(2σ²) (Mironov 2017, Proposition 7). Exact. */
  public static double gaussian(double sigma, double alpha) {
    Require.positive("sigma", sigma);
    Require.renyiOrder("alpha", alpha);
    return alpha / (2 * sigma * sigma);
  }

  /**
   * Discrete Gaussian with scale σ: (1/(2σ²))-zCDP (Canonne, Kamath and Steinke 2020, Proposition
   * 5 / Theorem 14), so D_α ≤ α/(2σ²). An upper bound, not the exact divergence.
   */
  public static double discreteGaussian(double sigma, double alpha) {
    return gaussian(sigma, alpha);
  }

  /**
   * Laplace mechanism Lap(b), exact (Mironov 2017, Proposition 6 / Table II):
   *
   * <pre>  D_α = log[α/(2α−1) · e^{(α−1)/b} + (α−1)/(2α−1) · e^{−α/b}] / (α − 1).</pre>
   *
   * <p>For small 1/b the bracket is 1 + [α g((α−1)/b) + (α−1) g(−α/b)]/(2α − 1) with g(x) = e^x − 1
   * − x ≥ 0 (the linear terms cancel exactly); both g terms are non-negative and g is evaluated by
   * its Taylor series near 0, so nothing cancels and the result keeps its relative precision (a few
   * ulps) even for b = 10^6. For α/b &gt; 1 the log-sum-exp form is used (no cancellation there).
   */
  public static double laplace(double scale, double alpha) {
    Require.positive("scale", scale);
    Require.renyiOrder("alpha", alpha);
    double u = 1 / scale;
    if (alpha * u <= 1) {
      double x =
          (alpha * expm1MinusX((alpha - 1) * u) + (alpha - 1) * expm1MinusX(-alpha * u))
              / (2 * alpha - 1);
      return Math.log1p(x) / (alpha - 1);
    }
    double logTerm =
        LogMath.logAddExp(
            Math.log(alpha / (2 * alpha - 1)) + (alpha - 1) * u,
            Math.log((alpha - 1) / (2 * alpha - 1)) - alpha * u);
    return Math.max(0, logTerm) / (alpha - 1);
  }

  /**
   * Discrete Laplace with scale t (Pr[z] ∝ e^{−|z|/t}), exact: summing the two geometric series of
   * Σ_z p(z)^α p(z − 1)^{1−α} gives (e^{αε} + e^{(1−α)ε})/(e^ε + 1) with ε = 1/t, the same as
   * binary randomized response with parameter ε.
   */
  public static double discreteLaplace(double scale, double alpha) {
    Require.positive("scale", scale);
    return PureDpConversion.renyiEpsilonOfRandomizedResponse(1 / scale, 2, alpha);
  }

  /** k-ary randomized response, exact; see {@link PureDpConversion#renyiEpsilonOfRandomizedResponse}. */
  public static double randomizedResponse(double epsilon, int categories, double alpha) {
    return PureDpConversion.renyiEpsilonOfRandomizedResponse(epsilon, categories, alpha);
  }

  /** e^x − 1 − x without cancellation: Taylor series for |x| ≤ 1/2, else expm1(x) − x. */
  static double expm1MinusX(double x) {
    if (Math.abs(x) > 0.5) {
      return Math.expm1(x) - x;
    }
    double term = x * x / 2;
    double sum = 0;
    for (int n = 3; term != 0 && Math.abs(term) > 1e-18 * Math.abs(sum); n++) {
      sum += term;
      term *= x / n;
    }
    return sum;
  }
}
