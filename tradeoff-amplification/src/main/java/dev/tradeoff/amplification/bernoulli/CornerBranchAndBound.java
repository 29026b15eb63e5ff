package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.numerics.LogMath;
import java.util.PriorityQueue;

/**
 * Certified global maximisation of the Rényi sum of equation (8) over pairs of c-corner
 * distributions (P, Q) with R_α(P, Q) ≤ ε and R_α(Q, P) ≤ ε (Theorems 1 and 3; Algorithms 1–3).
 *
 * <p>The paper calls this a convex program, but it maximises a convex function (the objective is
 * jointly convex in the masses x, y), so a local solver can stop anywhere on the boundary — started
 * at x = y = uniform it sits at the global minimum. This is a best-first spatial branch and bound
 * over boxes of (x, y) ∈ [0, 1]^{2·2^d} intersected with the two simplices:
 *
 * <ul>
 *   <li><b>upper bound</b> on a box: each output s contributes at most (max (Mx)_s)^α (min
 *       (My)_s)^{1−α}, the max and min over the box ∩ simplex being fractional knapsacks; the sum is
 *       ≥ the objective everywhere in the box and tends to it as the box shrinks (Lipschitz);
 *   <li><b>pruning</b>: a box is dropped when even the smallest value of a constraint over it
 *       (term-wise monotone bound on Σ x^α y^{1−α}) exceeds e^{(α−1)ε}, or when its bound does not
 *       beat the incumbent;
 *   <li><b>feasible points</b>: each box offers the point of the box on both simplices closest to its
 *       centre; when it satisfies both constraints it is a certified lower bound;
 *   <li><b>symmetry</b>: flipping any bit of the corners maps the problem onto itself and acts
 *       transitively on corners, so the corner carrying the largest P-mass may be taken to be corner
 *       0 (x_0 ≥ x_i), which removes 2^d − 1 of every 2^d symmetric copies.
 * </ul>
 *
 * The search stops when the best open bound is within the tolerance of the incumbent, or when the
 * node budget runs out (then the result is uncertified but its two bounds are still valid).
 */
final class CornerBranchAndBound {

  /** The bounds found, as logarithms of the Rényi sum. */
  record Outcome(double logLower, double logUpper, long nodes, boolean converged) {}

  private record Node(double[] box, double bound) {}

  private final CornerChannel channel;
  private final double alpha;
  private final double logBudget;
  private final int n;

  /**
   * @param logBudget (α − 1)·ε: the constraints read log Σ x^α y^{1−α} ≤ logBudget
   */
  CornerBranchAndBound(CornerChannel channel, double alpha, double logBudget) {
    this.channel = channel;
    this.alpha = alpha;
    this.logBudget = logBudget;
    this.n = channel.corners;
  }

  /**
   * @param logIncumbent log of a value already known to be attained by a feasible pair
   * @param logTolerance stop once log(upper) − log(lower) ≤ this
   * @param maxNodes branching budget
   */
  Outcome maximize(double logIncumbent, double logTolerance, long maxNodes) {
    double incumbent = logIncumbent;
    PriorityQueue<Node> open =
        new PriorityQueue<>((a, b) -> Double.compare(b.bound(), a.bound()));
    double[] root = new double[4 * n];
    for (int i = 0; i < n; i++) {
      root[n + i] = 1;
      root[3 * n + i] = 1;
    }
    if (tighten(root) && !infeasible(root)) {
      open.add(new Node(root, bound(root)));
    }
    long nodes = 0;
    while (!open.isEmpty()
        && open.peek().bound() - incumbent > logTolerance
        && nodes < maxNodes) {
      Node node = open.poll();
      nodes++;
      double[] box = node.box();
      int split = widest(box);
      double mid = splitPoint(box[split], box[split + n]);
      for (int half = 0; half < 2; half++) {
        double[] child = box.clone();
        if (half == 0) {
          child[split + n] = mid;
        } else {
          child[split] = mid;
        }
        if (!tighten(child) || infeasible(child)) {
          continue;
        }
        incumbent = Math.max(incumbent, feasibleValue(child));
        double b = bound(child);
        if (b > incumbent) {
          open.add(new Node(child, b));
        }
      }
    }
    double upper = open.isEmpty() ? incumbent : Math.max(incumbent, open.peek().bound());
    return new Outcome(incumbent, upper, nodes, upper - incumbent <= logTolerance);
  }

  /**
   * Where to cut [l, u]: the midpoint in logit coordinates, so that masses near 0 or 1 (x ≈ e^{−ε}
   * at large ε) are resolved as finely, relatively, as masses near 1/2; an end at 0 or 1 is
   * approached geometrically (by factors of 2^8).
   */
  private static double splitPoint(double l, double u) {
    double mid;
    if (l <= 0 && u >= 1) {
      mid = 0.5;
    } else if (l <= 0) {
      mid = u * 0x1p-8;
    } else if (u >= 1) {
      mid = 1 - (1 - l) * 0x1p-8;
    } else {
      double logitMid = 0.5 * (Math.log(l / (1 - l)) + Math.log(u / (1 - u)));
      mid = 1 / (1 + Math.exp(-logitMid));
    }
    return mid > l && mid < u ? mid : 0.5 * (l + u);
  }

  /** Index (into the lower half of lx|ux or ly|uy) of the widest coordinate. */
  private int widest(double[] box) {
    int best = 0;
    double width = -1;
    for (int i = 0; i < n; i++) {
      double wx = box[n + i] - box[i];
      double wy = box[3 * n + i] - box[2 * n + i];
      if (wx > width) {
        width = wx;
        best = i;
      }
      if (wy > width) {
        width = wy;
        best = 2 * n + i;
      }
    }
    return best;
  }

  /**
   * Shrinks the box with Σ = 1 on both simplices and x_0 ≥ x_i; false when the box is empty.
   * Rounding may shave off at most a few ulps of a feasible point, far below the reported gaps.
   */
  private boolean tighten(double[] box) {
    for (int pass = 0; pass < 2; pass++) {
      for (int part = 0; part < 2; part++) {
        int lo = 2 * n * part;
        int up = lo + n;
        double sumL = 0;
        double sumU = 0;
        for (int i = 0; i < n; i++) {
          sumL += box[lo + i];
          sumU += box[up + i];
        }
        if (sumL > 1 + 1e-12 || sumU < 1 - 1e-12) {
          return false;
        }
        for (int i = 0; i < n; i++) {
          double l = Math.max(box[lo + i], 1 - (sumU - box[up + i]));
          double u = Math.min(box[up + i], 1 - (sumL - box[lo + i]));
          box[lo + i] = Math.max(l, 0);
          box[up + i] = Math.min(u, 1);
        }
      }
      for (int i = 1; i < n; i++) {
        box[0] = Math.max(box[0], box[i]);
        box[n + i] = Math.min(box[n + i], box[n]);
      }
      for (int i = 0; i < n; i++) {
        for (int part = 0; part < 2; part++) {
          int lo = 2 * n * part + i;
          if (box[lo] > box[lo + n]) {
            if (box[lo] - box[lo + n] > 1e-15) {
              return false;
            }
            box[lo] = box[lo + n];
          }
        }
      }
    }
    return true;
  }

  /** True when one constraint's smallest value over the box exceeds the budget. */
  private boolean infeasible(double[] box) {
    return logConstraintLowerBound(box, 0, 3 * n) > logBudget
        || logConstraintLowerBound(box, 2 * n, n) > logBudget;
  }

  /** log of a lower bound on Σ_i a_i^α b_i^{1−α} with a_i ≥ box[aLow + i], b_i ≤ box[bUp + i]. */
  private double logConstraintLowerBound(double[] box, int aLow, int bUp) {
    double[] terms = new double[n];
    for (int i = 0; i < n; i++) {
      terms[i] = logPowerTerm(box[aLow + i], box[bUp + i]);
    }
    return LogMath.logSumExp(terms);
  }

  /** log(a^α b^{1−α}) with the conventions 0^α·b^{1−α} = 0 and a^α·0^{1−α} = ∞ for a &gt; 0. */
  private double logPowerTerm(double a, double b) {
    if (a == 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (b == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return alpha * Math.log(a) + (1 - alpha) * Math.log(b);
  }

  private double bound(double[] box) {
    double[] lx = slice(box, 0);
    double[] ux = slice(box, n);
    double[] ly = slice(box, 2 * n);
    double[] uy = slice(box, 3 * n);
    double[] terms = new double[channel.outcomes];
    for (int s = 0; s < channel.outcomes; s++) {
      terms[s] =
          alpha * channel.logExtremeMix(s, lx, ux, true)
              + (1 - alpha) * channel.logExtremeMix(s, ly, uy, false);
    }
    return LogMath.logSumExp(terms);
  }

  /** The objective at the box's point nearest its centre on both simplices, or −∞ if infeasible. */
  private double feasibleValue(double[] box) {
    double[] x = pointIn(box, 0);
    double[] y = pointIn(box, 2 * n);
    double[] c1 = new double[n];
    double[] c2 = new double[n];
    for (int i = 0; i < n; i++) {
      c1[i] = logPowerTerm(x[i], y[i]);
      c2[i] = logPowerTerm(y[i], x[i]);
    }
    if (LogMath.logSumExp(c1) > logBudget || LogMath.logSumExp(c2) > logBudget) {
      return Double.NEGATIVE_INFINITY;
    }
    return channel.logRenyiSum(alpha, x, y);
  }

  private double[] pointIn(double[] box, int lo) {
    double[] p = new double[n];
    double sumL = 0;
    double width = 0;
    for (int i = 0; i < n; i++) {
      sumL += box[lo + i];
      width += box[lo + n + i] - box[lo + i];
    }
    double share = width > 0 ? (1 - sumL) / width : 0;
    for (int i = 0; i < n; i++) {
      p[i] = box[lo + i] + share * (box[lo + n + i] - box[lo + i]);
    }
    return p;
  }

  private double[] slice(double[] box, int from) {
    double[] a = new double[n];
    System.arraycopy(box, from, a, 0, n);
    return a;
  }
}
