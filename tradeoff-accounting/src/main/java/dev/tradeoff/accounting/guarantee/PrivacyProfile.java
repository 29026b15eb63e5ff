package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * A privacy profile (Balle, Barthe and Gaboardi 2018): the function ε ↦ δ(ε) such that the
 * mechanism is (ε, δ(ε))-DP for every ε ≥ 0. δ is non-increasing in ε, so ε(δ) is found by monotone
 * inversion.
 */
public non-sealed interface PrivacyProfile extends PrivacyGuarantee {

  /** The smallest δ such that the mechanism is (ε, δ)-DP, or an upper bound on it. */
  double delta(double epsilon);

  /**
   * The smallest ε ≥ 0 with δ(ε) ≤ δ, by bisection on the non-increasing δ(·), rounded up (the
   * returned ε always satisfies δ(ε) ≤ δ). Returns {@code +∞} if no finite ε reaches δ.
   */
  default double epsilon(double delta) {
    Require.delta("delta", delta);
    if (delta(0) <= delta) {
      return 0;
    }
    double hi = 1;
    while (delta(hi) > delta) {
      hi *= 2;
      if (hi > 1e6) {
        return Double.POSITIVE_INFINITY;
      }
    }
    double lo = 0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
      double mid = 0.5 * (lo + hi);
      if (delta(mid) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /**
   * The true ε(δ) of what was accounted lies in the returned interval; its upper end is
   * {@link #epsilon(double)}. A profile that is itself only an upper bound on the truth (RDP, zCDP,
   * Kairouz et al.'s closed form, basic composition) knows no lower bound but 0, which is what
   * this default says; profiles that bracket the truth (the PLD's two discretizations) or are
   * exact (μ-GDP, the optimal composition, where what was accounted attains them) override it, the
   * exact ones with lower = upper up to the rounding of the last bits.
   */
  default EpsilonBounds epsilonBounds(double delta) {
    return new EpsilonBounds(0, epsilon(delta));
  }

  /**
   * The true δ(ε) lies in the returned interval; its upper end is {@link #delta(double)}. As for
   * {@link #epsilonBounds}, the default lower end is 0.
   */
  default DeltaBounds deltaBounds(double epsilon) {
    return new DeltaBounds(0, delta(epsilon));
  }

  /**
   * The given profile's upper ends (δ(ε), ε(δ)) with no lower end but 0: for an exact profile of
   * something that only bounds the accounted mechanism from above (μ-GDP of shuffled epochs, the
   * optimal composition of (ε, δ) guarantees that a Laplace mechanism does not attain).
   */
  static PrivacyProfile upperEndsOf(PrivacyProfile profile) {
    Require.nonNull("profile", profile);
    return new PrivacyProfile() {
      @Override
      public double delta(double epsilon) {
        return profile.delta(epsilon);
      }

      @Override
      public double epsilon(double delta) {
        return profile.epsilon(delta);
      }
    };
  }

  /** The (ε, δ(ε)) guarantee at the given ε. */
  default ApproxDp atEpsilon(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return new ApproxDp(epsilon, delta(epsilon));
  }

  /** The (ε(δ), δ) guarantee at the given δ; fails if no finite ε reaches δ. */
  default ApproxDp atDelta(double delta) {
    double epsilon = epsilon(delta);
    if (Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException(
          "delta must be reachable by this profile with a finite epsilon, but was " + delta);
    }
    return new ApproxDp(epsilon, delta);
  }
}
