package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;

/**
 * A discretized privacy loss distribution (Sommer, Meiser and Mohammadi 2019; Koskela, Jälkö and
 * Honkela 2020): the law of the loss L = log(dP/dQ) under P for a dominating pair (P, Q), on the
 * grid {iΔ}, with the mass at L = +∞ kept apart. Its hockey-stick curve is
 *
 * <pre>  δ(ε) = Pr[L = ∞] + Σ_{iΔ > ε} Pr[L = iΔ]·(1 − e^{ε − iΔ}).</pre>
 *
 * <p>A {@link Discretization#PESSIMISTIC} distribution returns upper bounds on the true δ(ε) and ε(δ);
 * an {@link Discretization#OPTIMISTIC} one lower bounds. Every numerical error bound (quadrature
 * margin, FFT round-off, aliasing, summation) is folded into the bound in its safe direction: for a
 * pessimistic distribution it is part of {@link #infinityMass()}, for an optimistic one it is the
 * {@link #deficit()} subtracted from δ. Summation of n terms is widened by the factor 1 + 2nu.
 *
 * <p>Instances are immutable.
 */
public final class PrivacyLossDistribution {

  private final Discretization discretization;
  private final double interval;
  private final long offset;
  private final double[] masses;
  private final double infinityMass;
  private final double deficit;

  PrivacyLossDistribution(
      Discretization discretization,
      double interval,
      long offset,
      double[] masses,
      double infinityMass,
      double deficit) {
    this.discretization = discretization;
    this.interval = interval;
    this.offset = offset;
    this.masses = masses;
    this.infinityMass = Math.min(1, infinityMass);
    this.deficit = deficit;
  }

  /** Which bound this distribution gives. */
  public Discretization discretization() {
    return discretization;
  }

  /** The grid spacing Δ of the losses. */
  public double interval() {
    return interval;
  }

  /**
   * Pr[L = +∞]; for a pessimistic distribution this includes the truncated upper tail and all
   * numerical error bounds.
   */
  public double infinityMass() {
    return infinityMass;
  }

  /** The amount an optimistic distribution subtracts from δ to cover numerical error (0 if none). */
  public double deficit() {
    return deficit;
  }

  /** The number of grid points stored. */
  public int size() {
    return masses.length;
  }

  /** The smallest loss on the stored grid. */
  public double lowestLoss() {
    return offset * interval;
  }

  /** The largest loss on the stored grid. */
  public double highestLoss() {
    return (offset + masses.length - 1) * interval;
  }

  /** Σ Pr[L = iΔ] over the finite grid. */
  public double finiteMass() {
    double sum = 0;
    for (double m : masses) {
      sum += m;
    }
    return sum;
  }

  long offset() {
    return offset;
  }

  double massAt(int index) {
    return masses[index];
  }

  double[] massesView() {
    return masses;
  }

  private double widening() {
    return 1 + 2.0 * masses.length * Fft.UNIT_ROUNDOFF;
  }

  /**
   * δ(ε) of this distribution: an upper bound on the true δ(ε) if pessimistic, a lower bound if
   * optimistic.
   *
   * @param epsilon ε ≥ 0
   */
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double sum = hockeyStickSum(epsilon);
    double value;
    if (discretization == Discretization.PESSIMISTIC) {
      value = infinityMass + sum * widening();
    } else {
      value = Math.max(0, infinityMass + sum / widening() - deficit);
    }
    return Math.min(1, value);
  }

  /** Σ_{iΔ > ε} m_i (1 − e^{ε − iΔ}), each term computed with expm1. */
  private double hockeyStickSum(double epsilon) {
    // In double: ε/Δ may exceed the range of long, and a saturated cast would wrap below.
    double first = Math.floor(epsilon / interval) + 1 - offset;
    if (first >= masses.length) {
      return 0;
    }
    double sum = 0;
    for (int i = (int) Math.max(0, first); i < masses.length; i++) {
      double loss = (offset + i) * interval;
      if (loss > epsilon) {
        sum -= masses[i] * Math.expm1(epsilon - loss);
      }
    }
    return sum;
  }

  /**
   * The smallest ε ≥ 0 at which this distribution's δ(ε) is at most δ, computed in one pass over the
   * grid: on [iΔ, (i+1)Δ] the hockey-stick sum is A − e^{ε−iΔ}E with A = Σ_{j>i} m_j and
   * E = Σ_{j>i} m_j e^{iΔ − jΔ}, so the crossing is solved in closed form. A pessimistic
   * distribution rounds the result up (its δ at the returned ε is ≤ δ, checked), an optimistic one
   * rounds it down. Returns +∞ if Pr[L = ∞] alone exceeds δ.
   *
   * @param delta δ in [0, 1)
   */
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;
    if (delta(0) <= delta) {
      return 0;
    }
    // Target for the plain hockey-stick sum S(ε).
    double target =
        pessimistic
            ? (delta - infinityMass) / widening()
            : (delta + deficit - infinityMass) * widening();
    if (!(target >= 0)) {
      return Double.POSITIVE_INFINITY;
    }
    double decay = Math.exp(-interval);
    double above = 0; // A: Σ_{j > i} m_j
    double weighted = 0; // E: Σ_{j > i} m_j e^{iΔ − jΔ}
    double solution = Double.NaN;
    for (int i = masses.length - 1; i >= 0; i--) {
      // Move the reference point from (i+1)Δ to iΔ, adding m_{i+1}.
      if (i + 1 < masses.length) {
        above += masses[i + 1];
        weighted = (weighted + masses[i + 1]) * decay;
      }
      double atGrid = above - weighted;
      if (atGrid > target) {
        solution = (offset + i) * interval + Math.log((above - target) / weighted);
        break;
      }
    }
    if (Double.isNaN(solution)) {
      // Below the lowest grid point: all masses are above ε.
      above += masses[0];
      weighted = (weighted + masses[0]) * decay;
      solution = (offset - 1) * interval + Math.log((above - target) / weighted);
    }
    solution = Math.max(0, solution);
    return pessimistic ? roundUp(solution, delta) : roundDown(solution, delta);
  }

  private double roundUp(double epsilon, double delta) {
    double step = 1e-12 * Math.max(1, Math.abs(epsilon));
    double candidate = epsilon + step;
    for (int i = 0; i < 200 && delta(candidate) > delta; i++) {
      step *= 2;
      candidate = epsilon + step;
    }
    return candidate;
  }

  private double roundDown(double epsilon, double delta) {
    double step = 1e-12 * Math.max(1, Math.abs(epsilon));
    double candidate = Math.max(0, epsilon - step);
    for (int i = 0; i < 200 && candidate > 0 && delta(candidate) <= delta; i++) {
      step *= 2;
      candidate = Math.max(0, epsilon - step);
    }
    return candidate;
  }

  @Override
  public String toString() {
    return "PrivacyLossDistribution["
        + discretization
        + ", interval="
        + interval
        + ", losses=["
        + lowestLoss()
        + ", "
        + highestLoss()
        + "], infinityMass="
        + infinityMass
        + "]";
  }
}
