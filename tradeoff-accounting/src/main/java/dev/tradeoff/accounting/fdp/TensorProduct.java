package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.Require;
import java.util.Arrays;

/**
 * Composition of f-DP guarantees by the tensor product f ⊗ g = T(P × P′, Q × Q′) for f = T(P, Q),
 * g = T(P′, Q′) (Dong, Roth and Su 2022, Definition 3.1 and Theorem 3.2; shuffle paper, Definition
 * 2.6 and Theorem 1), computed numerically for piecewise-linear curves.
 *
 * <p><b>Method.</b> Each curve with k segments is exactly T(P, Q) for its dominating pair on at
 * most k + 1 atoms ({@link PiecewiseLinearTradeoff#dominatingPair()}). The product pair has one
 * atom per pair of atoms, with likelihood ratio the product of the ratios (sum of log-ratios);
 * sorting the product atoms by decreasing ratio gives T(P × P′, Q × Q′) exactly (Neyman–Pearson).
 *
 * <p><b>Bounded support, safe direction.</b> When the exact product has more than
 * {@code maxSegments} segments it is replaced by the upper envelope of the supporting lines of a
 * subset of its segments whose log-likelihood-ratios are (greedily) at least
 * (range)/(maxSegments − 3) apart, always keeping the steepest and the flattest segment: this merges
 * likelihood ratios into a grid and is the trade-off function of a pair whose ratios all lie on the
 * kept grid. A supporting line of a convex function lies below it, so the reduced curve is never
 * above the exact one; f(0) and the end at (1, 0) are kept exactly. The error is reported, not
 * estimated: the gap sup(exact − reduced) is evaluated at the vertices of both curves.
 *
 * <p><b>Error accumulation.</b> If f̃ ≥ f − e then f̃ ⊗ g ≥ f ⊗ g − e, because (f ⊗ g)(α) =
 * inf ∫ f(α(y)) dQ′(y) over level functions α(·) with ∫ α(y) dP′(y) = α. Hence the gaps of the
 * inputs and of every reduction add up, and {@link TradeoffBound#gap()} of a result bounds its
 * total distance to the exact composition of the exact inputs.
 */
public final class TensorProduct {

  /** The default bound on the number of segments kept after each composition. */
  public static final int DEFAULT_MAX_SEGMENTS = 400;

  private TensorProduct() {}

  /** f ⊗ g for two exactly known curves, reduced to at most {@code maxSegments} segments. */
  public static TradeoffBound compose(
      PiecewiseLinearTradeoff f, PiecewiseLinearTradeoff g, int maxSegments) {
    return compose(TradeoffBound.exact(Require.nonNull("f", f)),
        TradeoffBound.exact(Require.nonNull("g", g)), maxSegments);
  }

  /**
   * f ⊗ g for two bounded curves: the result's lower curve is below the exact composition of the
   * exact curves, and its gap is the sum of the inputs' gaps and the reduction's gap.
   *
   * @param maxSegments at least 3
   */
  public static TradeoffBound compose(TradeoffBound f, TradeoffBound g, int maxSegments) {
    Require.nonNull("f", f);
    Require.nonNull("g", g);
    Require.that(maxSegments >= 3, "maxSegments", "must be >= 3", maxSegments);
    TradeoffBound rf = reduce(f.lower(), maxSegments);
    TradeoffBound rg = reduce(g.lower(), maxSegments);
    PiecewiseLinearTradeoff exact = exactProduct(rf.lower(), rg.lower());
    TradeoffBound reduced = reduce(exact, maxSegments);
    return new TradeoffBound(reduced.lower(),
        f.gap() + g.gap() + rf.gap() + rg.gap() + reduced.gap());
  }

  /** f^{⊗k}, the k-fold composition of f with itself, by k − 1 successive products. */
  public static TradeoffBound selfCompose(PiecewiseLinearTradeoff f, int k, int maxSegments) {
    Require.nonNull("f", f);
    Require.positive("k", k);
    Require.that(maxSegments >= 3, "maxSegments", "must be >= 3", maxSegments);
    TradeoffBound base = reduce(f, maxSegments);
    TradeoffBound result = base;
    for (int i = 1; i < k; i++) {
      result = compose(result, base, maxSegments);
    }
    return result;
  }

  /**
   * The exact tensor product T(P × P′, Q × Q′) of the dominating pairs, up to summation rounding
   * (no reduction).
   */
  static PiecewiseLinearTradeoff exactProduct(PiecewiseLinearTradeoff f, PiecewiseLinearTradeoff g) {
    DiscretePair a = f.dominatingPair();
    DiscretePair b = g.dominatingPair();
    double[] pa = a.p();
    double[] qa = a.q();
    double[] pb = b.p();
    double[] qb = b.q();
    int n = pa.length * pb.length;
    double[] p = new double[n];
    double[] q = new double[n];
    double[] logRatio = new double[n];
    int m = 0;
    for (int i = 0; i < pa.length; i++) {
      double li = Math.log(qa[i]) - Math.log(pa[i]);
      for (int j = 0; j < pb.length; j++) {
        double pp = pa[i] * pb[j];
        double qq = qa[i] * qb[j];
        if (pp == 0 && qq == 0) {
          continue;
        }
        double l = li + (Math.log(qb[j]) - Math.log(pb[j]));
        if (Double.isNaN(l)) {
          // +inf + -inf: one factor has P-mass 0, the other Q-mass 0, so the product is empty.
          continue;
        }
        p[m] = pp;
        q[m] = qq;
        logRatio[m] = l;
        m++;
      }
    }
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (i, j) -> Double.compare(logRatio[j], logRatio[i]));
    return DiscretePair.fromSortedAtoms(order, p, q);
  }

  /**
   * A lower bound with at most {@code maxSegments} segments: the curve itself if it is small
   * enough, else the envelope of the supporting lines of a grid of its segments (see the class
   * comment), with the exact gap.
   */
  public static TradeoffBound reduce(PiecewiseLinearTradeoff curve, int maxSegments) {
    Require.nonNull("curve", curve);
    Require.that(maxSegments >= 3, "maxSegments", "must be >= 3", maxSegments);
    int segments = curve.segmentCount();
    if (segments <= maxSegments) {
      return TradeoffBound.exact(curve);
    }
    double[] slopes = curve.slopes();
    double steepest = Math.log(-slopes[0]);
    int lastNegative = segments - 1;
    while (slopes[lastNegative] == 0) {
      lastNegative--;
    }
    double flattest = Math.log(-slopes[lastNegative]);
    double spacing = (steepest - flattest) / (maxSegments - 3);
    double[] keptSlopes = new double[segments];
    double[] keptIntercepts = new double[segments];
    int k = 0;
    double lastKept = Double.POSITIVE_INFINITY;
    for (int i = 0; i < segments; i++) {
      boolean endpoint = i == 0 || i == lastNegative || i == segments - 1;
      double l = slopes[i] == 0 ? Double.NEGATIVE_INFINITY : Math.log(-slopes[i]);
      if (endpoint || l <= lastKept - spacing) {
        keptSlopes[k] = slopes[i];
        keptIntercepts[k] = curve.vertexBeta(i) - slopes[i] * curve.vertexAlpha(i);
        k++;
        lastKept = l;
      }
    }
    PiecewiseLinearTradeoff lower = Tradeoffs.upperEnvelopeOfLines(
        Arrays.copyOf(keptSlopes, k), Arrays.copyOf(keptIntercepts, k));
    return new TradeoffBound(lower, Math.max(0, curve.maxExcessOver(lower)));
  }
}
