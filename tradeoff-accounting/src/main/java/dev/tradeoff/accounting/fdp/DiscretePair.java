package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * A pair (P, Q) of probability distributions on the same finite set of atoms, the object whose
 * trade-off function T(P, Q) defines f-DP (Dong, Roth and Su 2022, Definition 2.1). By the
 * Neyman–Pearson lemma, the optimal tests reject the atoms in order of decreasing likelihood ratio
 * Q/P (randomizing on the boundary atom), so T(P, Q) is the piecewise-linear curve through
 * (Σ_{j≤k} P_j, 1 − Σ_{j≤k} Q_j) with atoms sorted that way; see {@link #tradeoff()}.
 *
 * <p>Masses are validated to be non-negative and finite and to sum to 1 within 1e-9 each; the
 * trade-off curve is built from cumulative sums, so its vertices carry a rounding error of a few
 * ulps per atom.
 *
 * @param p the masses of P, one per atom
 * @param q the masses of Q, one per atom (same length)
 */
public record DiscretePair(double[] p, double[] q) {

  private static final double MASS_TOLERANCE = 1e-9;

  public DiscretePair {
    p = Require.finiteValues("p", p);
    q = Require.finiteValues("q", q);
    Require.that(p.length == q.length, "q.length", "must equal p.length " + p.length, q.length);
    double sp = 0;
    double sq = 0;
    for (int i = 0; i < p.length; i++) {
      Require.nonNegative("p[" + i + "]", p[i]);
      Require.nonNegative("q[" + i + "]", q[i]);
      sp += p[i];
      sq += q[i];
    }
    Require.that(Math.abs(sp - 1) <= MASS_TOLERANCE, "sum of p", "must be 1 (within 1e-9)", sp);
    Require.that(Math.abs(sq - 1) <= MASS_TOLERANCE, "sum of q", "must be 1 (within 1e-9)", sq);
  }

  /** A copy of P's masses. */
  @Override
  public double[] p() {
    return p.clone();
  }

  /** A copy of Q's masses. */
  @Override
  public double[] q() {
    return q.clone();
  }

  /** The number of atoms. */
  public int size() {
    return p.length;
  }

  /**
   * T(P, Q) exactly (up to summation rounding): atoms sorted by decreasing likelihood ratio Q/P
   * (compared by cross-multiplication, so ties are exact), the vertices are the cumulative
   * (P, 1 − Q) masses, and the lower convex envelope removes the collinear vertices of tied ratios.
   * Type-II errors are computed from the smaller of the head and tail sums of Q, so that β near 0
   * keeps its relative precision and β near 1 its absolute precision.
   */
  public PiecewiseLinearTradeoff tradeoff() {
    Integer[] order = new Integer[p.length];
    int m = 0;
    for (int i = 0; i < p.length; i++) {
      if (p[i] > 0 || q[i] > 0) {
        order[m++] = i;
      }
    }
    Integer[] atoms = Arrays.copyOf(order, m);
    // i before j when q_i / p_i > q_j / p_j, i.e. q_i p_j > q_j p_i (infinite ratios first).
    Arrays.sort(atoms, (i, j) -> Double.compare(q[j] * p[i], q[i] * p[j]));
    return fromSortedAtoms(atoms, p, q);
  }

  /** The curve of atoms already sorted by non-increasing likelihood ratio. */
  static PiecewiseLinearTradeoff fromSortedAtoms(Integer[] atoms, double[] p, double[] q) {
    int m = atoms.length;
    double[] a = new double[m + 1];
    double[] b = new double[m + 1];
    double tail = 0;
    for (int k = m - 1; k >= 0; k--) {
      tail += q[atoms[k]];
      b[k] = tail;
    }
    double head = 0;
    double headQ = 0;
    for (int k = 0; k < m; k++) {
      a[k] = Math.min(1, head);
      // β_k = 1 − (head Q-mass) = (tail Q-mass): use whichever sum is smaller, so that β near 1
      // and β near 0 both keep their precision (and β_0 = 1 exactly without infinite ratios).
      if (headQ < b[k]) {
        b[k] = 1 - headQ;
      }
      head += p[atoms[k]];
      headQ += q[atoms[k]];
    }
    a[m] = Math.min(1, head);
    b[m] = 0;
    for (int k = 0; k <= m; k++) {
      b[k] = Math.min(1, b[k]);
    }
    return PiecewiseLinearTradeoff.lowerConvexEnvelope(a, b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DiscretePair other && Arrays.equals(p, other.p)
        && Arrays.equals(q, other.q);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(p) + Arrays.hashCode(q);
  }

  @Override
  public String toString() {
    return "DiscretePair[p=" + Arrays.toString(p) + ", q=" + Arrays.toString(q) + "]";
  }
}
