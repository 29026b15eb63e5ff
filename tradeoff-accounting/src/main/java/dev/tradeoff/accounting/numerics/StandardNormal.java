package dev.tradeoff.accounting.numerics;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The standard normal distribution, accurate deep into both tails: Φ(−40) ≈ 3.7e−350 underflows a
 * double, but {@link #logCdf(double)} still returns it (via the scaled complementary error function
 * erfcx), and {@link #inverseCdf(double)} resolves probabilities down to the smallest subnormal.
 */
public final class StandardNormal {

  private static final NormalDistribution STANDARD = NormalDistribution.of(0, 1);
  private static final double SQRT2 = Math.sqrt(2);
  private static final double LOG2 = Math.log(2);

  private StandardNormal() {}

  /** Φ(x), with full relative precision in the lower tail. */
  public static double cdf(double x) {
    return 0.5 * Erfc.value(-x / SQRT2);
  }

  /** 1 − Φ(x) = Φ(−x), with full relative precision in the upper tail. */
  public static double survival(double x) {
    return cdf(-x);
  }

  /** log Φ(x) for every real x, never −∞ for finite x. */
  public static double logCdf(double x) {
    if (x < -5) {
      double z = -x / SQRT2;
      return Math.log(Erfcx.value(z)) - LOG2 - z * z;
    }
    if (x > 5) {
      return Math.log1p(-cdf(-x));
    }
    return Math.log(cdf(x));
  }

  /** The standard normal density φ(x). */
  public static double density(double x) {
    return STANDARD.density(x);
  }

  /** Φ⁻¹(p) for p in [0, 1]; accurate for p as small as 1e−300. */
  public static double inverseCdf(double p) {
    return STANDARD.inverseCumulativeProbability(p);
  }

  /** Φ⁻¹(1 − q), computed from q without forming 1 − q. */
  public static double inverseSurvival(double q) {
    return STANDARD.inverseSurvivalProbability(q);
  }
}
