package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.guarantee.TradeoffFunction;
import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * A numeric trade-off function (f-DP, Dong, Roth and Su 2022, Definition 2.1; [ShuffleGDP21,
 * Definition 2.2]): a convex, continuous, non-increasing, piecewise-linear f on [0, 1] with
 * f(α) ≤ 1 − α, given by its vertices (α_0, β_0), …, (α_n, β_n) with 0 = α_0 &lt; … &lt; α_n = 1
 * and
 * β_n = 0, and evaluated by linear interpolation.
 *
 * <p>Every such curve is exactly the trade-off function T(P, Q) of a pair of discrete distributions
 * on n + 1 points (see {@link #dominatingPair()}): this is the representation used for composition
 * and conversion to a privacy profile.
 *
 * <p><b>Tolerance and rounding.</b> The validating factory {@link #of(double[], double[])} accepts
 * vertices that violate convexity, monotonicity or β ≤ 1 − α by at most {@link #TOLERANCE}
 * (absolute, in β) and then lowers them to the greatest valid curve below: β is clamped to
 * min(β, 1 − α) and the lower convex envelope is taken. Lowering a trade-off function only weakens
 * the privacy claim, so this rounding is in the safe direction. Larger violations are rejected.
 * Instances are immutable and stored in reduced form: no three consecutive vertices are collinear
 * (up to floating-point rounding).
 */
public final class PiecewiseLinearTradeoff implements TradeoffFunction {

  /** The absolute violation (in β) of convexity, monotonicity or β ≤ 1 − α that is tolerated. */
  public static final double TOLERANCE = 1e-9;

  private final double[] alphas;
  private final double[] betas;

  private PiecewiseLinearTradeoff(double[] alphas, double[] betas) {
    this.alphas = alphas;
    this.betas = betas;
  }

  /**
   * The trade-off function with the given vertices, validated.
   *
   * @param alphas strictly increasing, alphas[0] = 0, alphas[n] = 1
   * @param betas in [0, 1], convex, non-increasing and ≤ 1 − α (each within {@link #TOLERANCE});
   *     betas[n] ≤ TOLERANCE
   * @throws IllegalArgumentException naming the first violated requirement
   */
  public static PiecewiseLinearTradeoff of(double[] alphas, double[] betas) {
    double[] a = Require.finiteValues("alphas", alphas);
    double[] b = Require.finiteValues("betas", betas);
    Require.that(a.length == b.length, "betas.length", "must equal alphas.length " + a.length,
        b.length);
    Require.that(a.length >= 2, "alphas.length", "must be >= 2", a.length);
    int n = a.length - 1;
    Require.that(a[0] == 0, "alphas[0]", "must be 0", a[0]);
    Require.that(a[n] == 1, "alphas[" + n + "]", "must be 1", a[n]);
    for (int i = 0; i <= n; i++) {
      Require.probability("alphas[" + i + "]", a[i]);
      Require.probability("betas[" + i + "]", b[i]);
      if (i > 0) {
        Require.that(a[i] > a[i - 1], "alphas[" + i + "]",
            "must be > alphas[" + (i - 1) + "] = " + a[i - 1] + " (strictly increasing)", a[i]);
        Require.that(b[i] <= b[i - 1] + TOLERANCE, "betas[" + i + "]",
            "must be <= betas[" + (i - 1) + "] = " + b[i - 1] + " (non-increasing, tolerance "
                + TOLERANCE + ")", b[i]);
      }
      Require.that(b[i] <= 1 - a[i] + TOLERANCE, "betas[" + i + "]",
          "must be <= 1 - alpha = " + (1 - a[i]) + " (tolerance " + TOLERANCE + ")", b[i]);
    }
    for (int i = 1; i < n; i++) {
      double t = (a[i] - a[i - 1]) / (a[i + 1] - a[i - 1]);
      double chord = b[i - 1] + t * (b[i + 1] - b[i - 1]);
      Require.that(b[i] <= chord + TOLERANCE, "betas[" + i + "]",
          "must be <= " + chord + ", the chord of its neighbours (convex, tolerance " + TOLERANCE
              + ")", b[i]);
    }
    for (int i = 0; i <= n; i++) {
      b[i] = Math.min(b[i], 1 - a[i]);
    }
    return lowerHull(a, b);
  }

  /**
   * The lower convex envelope of the given points together with the trivial tests (0, 1) and
   * (1, 0): the trade-off function of a family of tests with the given (type I, type II) errors
   * once randomized tests are allowed (Neyman–Pearson). The points may come in any order and may
   * lie above 1 − α; the envelope is a valid trade-off function.
   *
   * @param alphas type-I errors in [0, 1]
   * @param betas type-II errors in [0, 1], same length
   */
  public static PiecewiseLinearTradeoff lowerConvexEnvelope(double[] alphas, double[] betas) {
    Require.nonNull("alphas", alphas);
    Require.nonNull("betas", betas);
    Require.that(alphas.length == betas.length, "betas.length",
        "must equal alphas.length " + alphas.length, betas.length);
    int m = alphas.length;
    double[][] points = new double[m + 2][];
    for (int i = 0; i < m; i++) {
      points[i] = new double[] {
        Require.probability("alphas[" + i + "]", alphas[i]),
        Require.probability("betas[" + i + "]", betas[i])
      };
    }
    points[m] = new double[] {0, 1};
    points[m + 1] = new double[] {1, 0};
    Arrays.sort(points, (p, q) -> p[0] != q[0] ? Double.compare(p[0], q[0])
        : Double.compare(p[1], q[1]));
    double[] a = new double[points.length];
    double[] b = new double[points.length];
    int k = 0;
    for (double[] p : points) {
      if (k > 0 && a[k - 1] == p[0]) {
        continue; // same α: the first one has the smallest β
      }
      a[k] = p[0];
      b[k] = p[1];
      k++;
    }
    return lowerHull(Arrays.copyOf(a, k), Arrays.copyOf(b, k));
  }

  /** Id(α) = 1 − α, the trade-off function of perfect privacy (T(P, P)). */
  public static PiecewiseLinearTradeoff identity() {
    return new PiecewiseLinearTradeoff(new double[] {0, 1}, new double[] {1, 0});
  }

  /**
   * Lower hull of points sorted by strictly increasing α, with a[0] = 0, a[last] = 1, b in [0, 1],
   * b[last] = 0 after the caller's clamping. A middle point is dropped when it lies on or above the
   * chord of its neighbours, so the result only ever lies at or below the input (safe direction).
   */
  static PiecewiseLinearTradeoff lowerHull(double[] a, double[] b) {
    int n = a.length;
    double[] ha = new double[n];
    double[] hb = new double[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      while (k >= 2 && cross(ha[k - 2], hb[k - 2], ha[k - 1], hb[k - 1], a[i], b[i]) <= 0) {
        k--;
      }
      ha[k] = a[i];
      hb[k] = b[i];
      k++;
    }
    return new PiecewiseLinearTradeoff(Arrays.copyOf(ha, k), Arrays.copyOf(hb, k));
  }

  /** (b − a) × (c − a): positive when a, b, c turn counter-clockwise (b strictly below ac). */
  private static double cross(double ax, double ay, double bx, double by, double cx, double cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  }

  /** f(α) by linear interpolation between the vertices. */
  @Override
  public double beta(double alpha) {
    Require.probability("alpha", alpha);
    int i = Arrays.binarySearch(alphas, alpha);
    if (i >= 0) {
      return betas[i];
    }
    int right = -i - 1;
    int left = right - 1;
    double t = (alpha - alphas[left]) / (alphas[right] - alphas[left]);
    double value = betas[left] + t * (betas[right] - betas[left]);
    return Math.max(betas[right], Math.min(betas[left], value));
  }

  /** The number of vertices n + 1 (at least 2). */
  public int vertexCount() {
    return alphas.length;
  }

  /** The number of linear segments n = vertexCount() − 1. */
  public int segmentCount() {
    return alphas.length - 1;
  }

  /** α_i, the type-I error of vertex i. */
  public double vertexAlpha(int i) {
    return alphas[Require.inClosedRange("i", i, 0, alphas.length - 1)];
  }

  /** β_i = f(α_i), the type-II error of vertex i. */
  public double vertexBeta(int i) {
    return betas[Require.inClosedRange("i", i, 0, betas.length - 1)];
  }

  /** A copy of the vertices' α values, increasing from 0 to 1. */
  public double[] alphas() {
    return alphas.clone();
  }

  /** A copy of the vertices' β values, non-increasing to 0. */
  public double[] betas() {
    return betas.clone();
  }

  /**
   * The slope of segment i (between vertices i and i + 1): ≤ 0 and non-decreasing in i. Its
   * negative is the likelihood ratio dQ/dP of the atom of {@link #dominatingPair()} for segment i.
   */
  public double slope(int segment) {
    int i = Require.inClosedRange("segment", segment, 0, alphas.length - 2);
    return (betas[i + 1] - betas[i]) / (alphas[i + 1] - alphas[i]);
  }

  /** All segment slopes, non-decreasing, each ≤ 0. */
  public double[] slopes() {
    double[] s = new double[segmentCount()];
    for (int i = 0; i < s.length; i++) {
      s[i] = slope(i);
    }
    return s;
  }

  /**
   * The inverse f⁻¹(α) = inf{t ∈ [0, 1] : f(t) ≤ α} (Dong, Roth and Su 2022, Section 2; it is the
   * trade-off function T(Q, P) when f = T(P, Q)): the reflection of the graph in the diagonal.
   */
  public PiecewiseLinearTradeoff inverse() {
    int n = alphas.length;
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = betas[n - 1 - i];
      b[i] = alphas[n - 1 - i];
    }
    return lowerConvexEnvelope(a, b);
  }

  /**
   * The symmetrization min(f, f⁻¹)** (the lower convex envelope of the pointwise minimum), for an
   * f that is the trade-off T(M(S), M(S′)) of one ordered pair of neighbours: since neighbouring
   * is symmetric, the mechanism is then also T(M(S′), M(S)) = f⁻¹-bounded on the reversed pair, and
   * the greatest trade-off function below both f and f⁻¹ is min(f, f⁻¹)**. This is the construction
   * of Dong, Roth and Su 2022, Section 4 (subsampling: C_p(f) = min(f_p, f_p⁻¹)**), and the result
   * is symmetric. For an f that already holds for all ordered pairs, f-DP and f⁻¹-DP hold together
   * and max(f, f⁻¹) is the stronger, still valid, symmetric guarantee; this method does not assume
   * that and returns the safe (lower) curve.
   */
  public PiecewiseLinearTradeoff symmetrized() {
    PiecewiseLinearTradeoff inv = inverse();
    // Between consecutive vertices of f and f⁻¹ both are linear, so min(f, f⁻¹) is concave there
    // and lies above its chord: the envelope is fixed by the values at the union of the vertices.
    double[] a = mergeAlphas(alphas, inv.alphas);
    double[] b = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = Math.min(beta(a[i]), inv.beta(a[i]));
    }
    return lowerConvexEnvelope(a, b);
  }

  /**
   * True when f = f⁻¹ within the given absolute tolerance on β, checked at the vertices of both
   * (the difference of two piecewise-linear functions is extremal at a vertex of one of them).
   */
  public boolean isSymmetric(double tolerance) {
    Require.nonNegative("tolerance", tolerance);
    PiecewiseLinearTradeoff inv = inverse();
    for (double x : mergeAlphas(alphas, inv.alphas)) {
      if (Math.abs(beta(x) - inv.beta(x)) > tolerance) {
        return false;
      }
    }
    return true;
  }

  /**
   * sup over α of this(α) − other(α), evaluated exactly at the vertices of both curves; ≤ 0 means
   * this curve lies at or below the other everywhere.
   */
  public double maxExcessOver(PiecewiseLinearTradeoff other) {
    Require.nonNull("other", other);
    double max = Double.NEGATIVE_INFINITY;
    for (double x : mergeAlphas(alphas, other.alphas)) {
      max = Math.max(max, beta(x) - other.beta(x));
    }
    return max;
  }

  /** Sorted union of two increasing arrays (duplicates kept once). */
  static double[] mergeAlphas(double[] x, double[] y) {
    double[] out = new double[x.length + y.length];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < x.length || j < y.length) {
      double v;
      if (j >= y.length || (i < x.length && x[i] <= y[j])) {
        v = x[i++];
      } else {
        v = y[j++];
      }
      if (k == 0 || out[k - 1] != v) {
        out[k++] = v;
      }
    }
    return Arrays.copyOf(out, k);
  }

  /**
   * The dominating pair of discrete distributions (P, Q) with T(P, Q) = f exactly: one atom per
   * segment i with P-mass α_{i+1} − α_i and Q-mass β_i − β_{i+1} (likelihood ratio −slope(i)),
   * plus, when f(0) &lt; 1, an atom with P-mass 0 and Q-mass 1 − f(0) (infinite likelihood ratio).
   * Atoms are ordered by non-increasing likelihood ratio.
   */
  public DiscretePair dominatingPair() {
    int n = segmentCount();
    boolean jump = betas[0] < 1;
    int size = n + (jump ? 1 : 0);
    double[] p = new double[size];
    double[] q = new double[size];
    int k = 0;
    if (jump) {
      p[k] = 0;
      q[k] = 1 - betas[0];
      k++;
    }
    for (int i = 0; i < n; i++) {
      p[k] = alphas[i + 1] - alphas[i];
      q[k] = betas[i] - betas[i + 1];
      k++;
    }
    return new DiscretePair(p, q);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PiecewiseLinearTradeoff other
        && Arrays.equals(alphas, other.alphas)
        && Arrays.equals(betas, other.betas);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(alphas) + Arrays.hashCode(betas);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("PiecewiseLinearTradeoff[");
    for (int i = 0; i < alphas.length; i++) {
      if (i > 0) {
        s.append(", ");
      }
      s.append('(').append(alphas[i]).append(", ").append(betas[i]).append(')');
    }
    return s.append(']').toString();
  }
}
