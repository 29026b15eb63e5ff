package dev.tradeoff.accounting.conversion;

import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;

/**
 * Conversions out of μ-Gaussian DP (Dong, Roth and Su 2022).
 *
 * <p>Profile ([ShuffleGDP21, Corollary 2.5]; Dong, Roth and Su 2022, Corollary 2.13; equivalently
 * the exact analytic-Gaussian condition of Balle and Wang 2018, Theorem 8 with μ = Δ/σ): μ-GDP is
 * (ε, δ(ε))-DP for every ε ≥ 0 with
 *
 * <pre>  δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2),</pre>
 *
 * and this is tight. Both terms are formed as logarithms (StandardNormal.logCdf stays accurate deep
 * in the lower tail) and subtracted with LogMath.logSubExp, so δ keeps its relative precision
 * (about 1e−13 or better) where it is far below 1e−300. {@link #epsilon} and {@link #mu} invert it
 * by bisection on doubles down to adjacent values, rounded in the safe direction.
 *
 * <p>RDP: μ-GDP implies (α, αμ²/2)-RDP, because by Blackwell's theorem the pair is a
 * post-processing of N(0, 1), N(μ, 1), whose Rényi divergence is αμ²/2.
 */
public final class GaussianDpConversion {

  private GaussianDpConversion() {}

  /** The tight privacy profile of μ-GDP. */
  public static GaussianDpProfile toProfile(GaussianDp gdp) {
    Require.nonNull("gdp", gdp);
    return new GaussianDpProfile(gdp.mu());
  }

  /** μ-GDP ⇒ (α, αμ²/2)-RDP at each order. */
  public static RenyiDp toRenyiDp(GaussianDp gdp, double[] orders) {
    Require.nonNull("gdp", gdp);
    double halfMuSq = gdp.mu() * gdp.mu() / 2;
    return RenyiDp.ofCurve(orders, a -> a * halfMuSq);
  }

  /**
   * δ(ε) of μ-GDP (Corollary 2.5), computed in log space.
   *
   * @param mu μ ≥ 0 (μ = 0 gives δ = 0)
   * @param epsilon ε ≥ 0
   */
  public static double delta(double mu, double epsilon) {
    return deltaWithError(mu, epsilon)[0];
  }

  /**
   * {δ(ε) as evaluated, a bound on its relative error}. The two log-terms a ≥ b are each within
   * 1e−14·max(1, |a|, |b|) of their exact values (StandardNormal.logCdf is accurate to a few ulps
   * of its magnitude; the bound allows a hundred), so e^a − e^b is within that times
   * 2/(1 − e^{b−a}) relative: the factor is the cancellation of the subtraction, large only where
   * the two terms nearly agree (μ → 0).
   */
  static double[] deltaWithError(double mu, double epsilon) {
    Require.nonNegative("mu", mu);
    Require.nonNegative("epsilon", epsilon);
    if (mu == 0) {
      return new double[] {0, 0};
    }
    double x = epsilon / mu;
    double logFirst = StandardNormal.logCdf(-x + mu / 2);
    double logSecond = epsilon + StandardNormal.logCdf(-x - mu / 2);
    double scale = 1e-14 * Math.max(1, Math.max(Math.abs(logFirst), Math.abs(logSecond)));
    if (logSecond >= logFirst) {
      // Only reachable through rounding when the two terms agree to the last ulp; the first term
      // alone is a valid (upper) bound on δ, and 0 a lower one.
      return new double[] {Math.exp(logFirst), 1};
    }
    double kept = -Math.expm1(logSecond - logFirst);
    return new double[] {
      Math.exp(LogMath.logSubExp(logFirst, logSecond)), Math.min(1, 2 * scale / kept)
    };
  }

  /** δ(ε) rounded up past its evaluation error: an upper bound on the exact δ(ε) of μ-GDP. */
  static double deltaUpper(double mu, double epsilon) {
    double[] d = deltaWithError(mu, epsilon);
    return d[1] >= 1 ? Math.min(1, 2 * d[0]) : Math.min(1, d[0] * (1 + d[1]));
  }

  /** δ(ε) rounded down past its evaluation error: a lower bound on the exact δ(ε) of μ-GDP. */
  static double deltaLower(double mu, double epsilon) {
    double[] d = deltaWithError(mu, epsilon);
    return d[1] >= 1 ? 0 : d[0] * (1 - d[1]);
  }

  /**
   * The smallest ε ≥ 0 with {@code delta(ε) ≤ δ} for a non-increasing {@code delta}, to adjacent
   * doubles, rounded up.
   */
  static double smallestEpsilon(java.util.function.DoubleUnaryOperator delta, double mu,
      double target) {
    if (delta.applyAsDouble(0) <= target) {
      return 0;
    }
    double lo = 0;
    double hi = Math.max(1, mu * mu);
    while (delta.applyAsDouble(hi) > target) {
      lo = hi;
      hi *= 2;
    }
    return bisectDecreasing(lo, hi, e -> delta.applyAsDouble(e) <= target);
  }

  /**
   * ε(δ) of μ-GDP: the smallest ε ≥ 0 with δ(ε) ≤ δ, found by bisection down to adjacent doubles
   * and rounded up (the returned ε satisfies δ(ε) ≤ δ as evaluated).
   *
   * @param mu μ ≥ 0
   * @param delta δ in (0, 1)
   */
  public static double epsilon(double mu, double delta) {
    Require.nonNegative("mu", mu);
    Require.openUnit("delta", delta);
    return smallestEpsilon(e -> delta(mu, e), mu, delta);
  }

  /**
   * The largest μ such that μ-GDP implies (ε, δ)-DP (δ(ε) is increasing in μ), by bisection down
   * to adjacent doubles, rounded down (the returned μ satisfies δ_μ(ε) ≤ δ as evaluated).
   *
   * @param epsilon ε ≥ 0
   * @param delta δ in (0, 1)
   */
  public static double mu(double epsilon, double delta) {
    Require.nonNegative("epsilon", epsilon);
    Require.openUnit("delta", delta);
    double lo = 0;
    double hi = 1;
    while (delta(hi, epsilon) <= delta) {
      lo = hi;
      hi *= 2;
    }
    // invariant: delta(lo) <= target < delta(hi); answer lo
    while (true) {
      double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) {
        return lo;
      }
      if (delta(mid, epsilon) <= delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }

  /** Smallest x in (lo, hi] with ok(x), given !ok(lo) and ok(hi), to adjacent doubles. */
  static double bisectDecreasing(double lo, double hi, java.util.function.DoublePredicate ok) {
    while (true) {
      double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) {
        return hi;
      }
      if (ok.test(mid)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
  }

  /**
   * The tight privacy profile of μ-GDP, every answer rounded past its evaluation error
   * ({@link #deltaWithError}): {@link #delta} is an upper bound on the exact δ(ε), {@link #epsilon}
   * on the exact ε(δ), and the bounds bracket the exact value within that error (lower = upper up
   * to the last bits, except where the two terms of δ nearly cancel).
   *
   * @param mu μ ≥ 0
   */
  public record GaussianDpProfile(double mu) implements PrivacyProfile {
    public GaussianDpProfile {
      Require.nonNegative("mu", mu);
    }

    @Override
    public double delta(double epsilon) {
      return deltaUpper(mu, epsilon);
    }

    @Override
    public double epsilon(double delta) {
      return epsilonBounds(delta).upper();
    }

    @Override
    public DeltaBounds deltaBounds(double epsilon) {
      return new DeltaBounds(deltaLower(mu, epsilon), deltaUpper(mu, epsilon));
    }

    @Override
    public EpsilonBounds epsilonBounds(double delta) {
      Require.delta("delta", delta);
      if (mu == 0) {
        return new EpsilonBounds(0, 0);
      }
      if (delta == 0) {
        return new EpsilonBounds(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
      }
      return new EpsilonBounds(
          smallestEpsilon(e -> deltaLower(mu, e), mu, delta),
          smallestEpsilon(e -> deltaUpper(mu, e), mu, delta));
    }
  }
}
