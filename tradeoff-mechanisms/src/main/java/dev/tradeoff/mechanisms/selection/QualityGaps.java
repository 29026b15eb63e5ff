package dev.tradeoff.mechanisms.selection;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Rational;

/**
 * The exact exponents γ_r = ε·(u* − u_r)/(c·Δ) shared by the exponential mechanism and
 * permute-and-flip (c = 2 in general, c = 1 for monotone utilities), so that e^{−γ_r} is sampled
 * with no floating-point rounding of ε, Δ or the utilities.
 */
final class QualityGaps {

  private QualityGaps() {}

  /** ε/(cΔ) exactly. */
  static Rational rate(double epsilon, double sensitivity, boolean monotone) {
    return Rational.exactly(epsilon)
        .dividedBy(Rational.exactly(sensitivity).times(Rational.of(monotone ? 1 : 2, 1)));
  }

  /** γ_r = rate·(u* − u_r) exactly. */
  static Rational[] of(double[] utilities, Rational rate) {
    double max = max(utilities);
    Rational[] gammas = new Rational[utilities.length];
    for (int r = 0; r < utilities.length; r++) {
      gammas[r] = rate.times(Rational.difference(max, utilities[r]));
    }
    return gammas;
  }

  /** u* = max_r u_r. */
  static double max(double[] utilities) {
    double max = Double.NEGATIVE_INFINITY;
    for (double u : utilities) {
      max = Math.max(max, u);
    }
    return max;
  }

  static double[] checked(double[] utilities) {
    return Require.finiteValues("utilities", utilities);
  }
}
