package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.Require;

/**
 * An amount of privacy budget: ε and δ. The pure-DP filter uses δ = 0; the RDP filter keeps the
 * Rényi ε at its one order in {@code epsilon} (δ = 0).
 *
 * @param epsilon ε ≥ 0 and finite
 * @param delta δ in [0, 1)
 */
public record Charge(double epsilon, double delta) {

  /** Nothing. */
  public static final Charge ZERO = new Charge(0, 0);

  public Charge {
    Require.nonNegative("epsilon", epsilon);
    Require.delta("delta", delta);
  }

  /** ε only (δ = 0). */
  public static Charge ofEpsilon(double epsilon) {
    return new Charge(epsilon, 0);
  }

  /** Component-wise sum, rounded up to the next double where inexact. */
  public Charge plus(Charge other) {
    return new Charge(sumUp(epsilon, other.epsilon), Math.min(sumUp(delta, other.delta), Math.nextDown(1.0)));
  }

  /** Component-wise max(0, this − other), rounded down (what remains of a budget). */
  public Charge minusFloorZero(Charge other) {
    return new Charge(
        Math.max(0, Math.nextDown(epsilon - other.epsilon)), Math.max(0, Math.nextDown(delta - other.delta)));
  }

  /** Whether both components are ≤ those of {@code bound}. */
  public boolean fitsWithin(Charge bound) {
    return epsilon <= bound.epsilon && delta <= bound.delta;
  }

  private static double sumUp(double a, double b) {
    double s = a + b;
    // a + b is exact iff (s − a) == b and (s − (s − a)) == a (Knuth two-sum error is zero)
    double bv = s - a;
    double err = (a - (s - bv)) + (b - bv);
    return err > 0 ? Math.nextUp(s) : s;
  }
}
