package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * Composition of f-DP guarantees by the tensor product f ⊗ g = T(P × P′, Q × Q′) for f = T(P, Q),
 * g = T(P′, Q′) (Dong, Roth and Su 2022, Definition 3.1 and Theorem 3.2; [ShuffleGDP21, Definition
 * 2.6 and Theorem 1), computed numerically for piecewise-linear curves.
 *
 * <p><b>Method.</b> Each curve with k segments is exactly T(P, Q) for its dominating pair on at
 * most k + 1 atoms ({@link PiecewiseLinearTradeoff#dominatingPair()}). The product pair has one
 * atom per pair of atoms, with log-likelihood-ratio the sum of the two; sorting the product atoms
 * by decreasing ratio gives T(P × P′, Q × Q′) exactly (Neyman–Pearson). Repeated compositions
 * carry the atoms and their log-ratios, not the curve, so ratios do not lose precision by being
 * re-derived from vertex differences.
 *
 * <p><b>Ties.</b> Atoms whose log-ratios agree within 1e-12 (relative to max(1, |ℓ|)) are merged
 * safely: the group's Q-masses are summed and each P-mass p_j = q_j e^{−ℓ_j} is replaced by
 * q_j e^{−ℓ} ≤ p_j for the group's top ℓ (the ratio rounded UP), so every vertex keeps its β and
 * moves left in α: a curve never above the exact one.
 *
 * <p><b>Bounded support, safe direction.</b> When the product has more than {@code maxSegments}
 * atoms, its likelihood ratios are merged into a grid: the curve is replaced by the upper envelope
 * of its supporting lines with slopes −e^{ℓ_k} for maxSegments − 2 log-ratios ℓ_k equally spaced
 * between the largest and smallest finite ones (and β = 0). That envelope is T(P̃, Q̃) for a pair
 * whose ratios all lie on the grid; supporting lines of a convex curve lie below it, so the merged
 * curve is never above the exact one, and it keeps f(0) and the point where the curve reaches 0.
 * The error is second order in the grid spacing and is reported, not estimated: the gap
 * sup(exact − merged) is evaluated at the vertices of both curves.
 *
 * <p><b>Error accumulation.</b> If f̃ ≥ f − e then f̃ ⊗ g ≥ f ⊗ g − e, because (f ⊗ g)(α) =
 * inf ∫ f(α(y)) dQ′(y) over level functions α(·) with ∫ α(y) dP′(y) = α. Hence the gaps of the
 * inputs and of every reduction add up, and {@link TradeoffBound#gap()} of a result bounds its
 * total distance to the exact composition of the exact inputs (up to floating-point rounding,
 * which grows slowly with the number of compositions: about 1e-13 absolute in δ after 60).
 */
public final class TensorProduct {

  /** The default bound on the number of segments kept after each composition. */
  public static final int DEFAULT_MAX_SEGMENTS = 400;

  /** Relative width (in log-likelihood-ratio) of the safe merging of rounding-level ties. */
  private static final double TIE = 1e-12;

  private TensorProduct() {}

  /** f ⊗ g for two exactly known curves, with at most {@link #DEFAULT_MAX_SEGMENTS} segments. */
  public static TradeoffBound compose(PiecewiseLinearTradeoff f, PiecewiseLinearTradeoff g) {
    return compose(f, g, DEFAULT_MAX_SEGMENTS);
  }

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
    Reduced a = Atoms.of(f.lower()).reduce(maxSegments);
    Reduced b = Atoms.of(g.lower()).reduce(maxSegments);
    Reduced product = a.atoms.times(b.atoms).reduce(maxSegments);
    return new TradeoffBound(product.atoms.curve(),
        f.gap() + g.gap() + a.gap + b.gap + product.gap);
  }

  /** f^{⊗k}, the k-fold composition of f with itself, by k − 1 successive products. */
  public static TradeoffBound selfCompose(PiecewiseLinearTradeoff f, int k, int maxSegments) {
    Require.nonNull("f", f);
    Require.positive("k", k);
    Require.that(maxSegments >= 3, "maxSegments", "must be >= 3", maxSegments);
    Reduced base = Atoms.of(f).reduce(maxSegments);
    Atoms result = base.atoms;
    double gap = base.gap;
    for (int i = 1; i < k; i++) {
      Reduced step = result.times(base.atoms).reduce(maxSegments);
      result = step.atoms;
      gap += base.gap + step.gap;
    }
    return new TradeoffBound(result.curve(), gap);
  }

  /**
   * A lower bound with at most {@code maxSegments} segments: the curve itself if it is small
   * enough, else its atoms merged safely on a log-ratio grid (see the class comment), with the
   * exact gap.
   */
  public static TradeoffBound reduce(PiecewiseLinearTradeoff curve, int maxSegments) {
    Require.nonNull("curve", curve);
    Require.that(maxSegments >= 3, "maxSegments", "must be >= 3", maxSegments);
    Reduced r = Atoms.of(curve).reduce(maxSegments);
    return new TradeoffBound(r.gap == 0 ? curve : r.atoms.curve(), r.gap);
  }

  private record Reduced(Atoms atoms, double gap) {}

  /** A dominating pair as atoms sorted by non-increasing log-likelihood-ratio log(q/p). */
  private record Atoms(double[] p, double[] q, double[] logRatio) {

    static Atoms of(PiecewiseLinearTradeoff curve) {
      DiscretePair pair = curve.dominatingPair();
      double[] p = pair.p();
      double[] q = pair.q();
      double[] l = new double[p.length];
      for (int i = 0; i < p.length; i++) {
        l[i] = Math.log(q[i]) - Math.log(p[i]);
      }
      return sortedMerged(p, q, l, p.length);
    }

    int size() {
      return p.length;
    }

    /**
     * The product pair, already sorted: both factors are sorted by decreasing log-ratio, so the
     * products ℓ_i + ℓ′_j are produced in order by merging the n rows i with a binary heap
     * (O(nm log n), no boxing), and ties are merged on the fly.
     */
    Atoms times(Atoms other) {
      Atoms rows = size() <= other.size() ? this : other;
      Atoms cols = rows == this ? other : this;
      int n = rows.size();
      int m = cols.size();
      int[] col = new int[n];
      int[] heap = new int[n];
      double[] key = new double[n];
      int heapSize = 0;
      for (int i = 0; i < n; i++) {
        key[i] = rows.logRatio[i] + cols.logRatio[0];
        heap[heapSize++] = i;
        siftUp(heap, key, heapSize - 1);
      }
      Builder out = new Builder(n * m);
      while (heapSize > 0) {
        int i = heap[0];
        int j = col[i];
        double l = key[i];
        double pp = rows.p[i] * cols.p[j];
        double qq = rows.q[i] * cols.q[j];
        // NaN: +inf + -inf, an atom with P-mass 0 times one with Q-mass 0: empty.
        if (!Double.isNaN(l) && (pp > 0 || qq > 0)) {
          out.add(pp, qq, l);
        }
        col[i] = j + 1;
        if (j + 1 < m) {
          key[i] = rows.logRatio[i] + cols.logRatio[j + 1];
          siftDown(heap, key, heapSize, 0);
        } else {
          heap[0] = heap[--heapSize];
          siftDown(heap, key, heapSize, 0);
        }
      }
      return out.build();
    }

    /** Max-heap on key, treating NaN as the smallest key (it is skipped when popped). */
    private static boolean above(double a, double b) {
      return a > b || (Double.isNaN(b) && !Double.isNaN(a));
    }

    private static void siftUp(int[] heap, double[] key, int k) {
      while (k > 0) {
        int parent = (k - 1) / 2;
        if (!above(key[heap[k]], key[heap[parent]])) {
          return;
        }
        int t = heap[k];
        heap[k] = heap[parent];
        heap[parent] = t;
        k = parent;
      }
    }

    private static void siftDown(int[] heap, double[] key, int size, int k) {
      while (true) {
        int left = 2 * k + 1;
        if (left >= size) {
          return;
        }
        int best = left;
        if (left + 1 < size && above(key[heap[left + 1]], key[heap[left]])) {
          best = left + 1;
        }
        if (!above(key[heap[best]], key[heap[k]])) {
          return;
        }
        int t = heap[k];
        heap[k] = heap[best];
        heap[best] = t;
        k = best;
      }
    }

    /**
     * When there are more than maxSegments atoms: the upper envelope of the supporting lines of
     * the exact curve at maxSegments − 2 log-ratios equally spaced from the largest to the smallest
     * finite one (plus β = 0), and the gap to the exact curve.
     */
    Reduced reduce(int maxSegments) {
      if (size() <= maxSegments) {
        return new Reduced(this, 0);
      }
      int n = size();
      // Vertices before each atom: α_v = head P-mass, β_v = 1 − head Q-mass (= tail Q-mass).
      double[] alpha = new double[n + 1];
      double[] beta = new double[n + 1];
      double tail = 0;
      for (int k = n - 1; k >= 0; k--) {
        tail += q[k];
        beta[k] = tail;
      }
      double head = 0;
      double headQ = 0;
      for (int k = 0; k < n; k++) {
        alpha[k] = Math.min(1, head);
        beta[k] = Math.min(1, Math.min(beta[k], 1 - headQ));
        head += p[k];
        headQ += q[k];
      }
      alpha[n] = Math.min(1, head);
      double hi = Double.NEGATIVE_INFINITY;
      double lo = Double.POSITIVE_INFINITY;
      for (double l : logRatio) {
        if (Double.isFinite(l)) {
          hi = Math.max(hi, l);
          lo = Math.min(lo, l);
        }
      }
      int lines = maxSegments - 2;
      double[] slopes = new double[lines];
      double[] intercepts = new double[lines];
      int v = 0;
      for (int k = 0; k < lines; k++) {
        double l = k == lines - 1 ? lo : hi - (hi - lo) * k / (lines - 1);
        while (v < n && logRatio[v] > l) {
          v++;
        }
        // The exact curve's slopes are −e^{ℓ_j}: at vertex v they cross −e^{l}, so the line with
        // slope −e^{l} through vertex v supports the convex curve from below.
        double ratio = Math.exp(l);
        slopes[k] = -ratio;
        intercepts[k] = beta[v] + ratio * alpha[v];
      }
      PiecewiseLinearTradeoff envelope = Tradeoffs.upperEnvelopeOfLines(slopes, intercepts);
      // sup(exact − envelope): the difference of two piecewise-linear functions is extremal at a
      // vertex of one of them.
      double gap = 0;
      for (int k = 0; k <= n; k++) {
        gap = Math.max(gap, beta[k] - envelope.beta(alpha[k]));
      }
      for (int k = 0; k < envelope.vertexCount(); k++) {
        double x = envelope.vertexAlpha(k);
        gap = Math.max(gap, interpolate(alpha, beta, x) - envelope.vertexBeta(k));
      }
      return new Reduced(Atoms.of(envelope), gap);
    }

    /** The chain through (alpha[k], beta[k]) (alpha non-decreasing) at x; 0 beyond its end. */
    private static double interpolate(double[] alpha, double[] beta, double x) {
      int n = alpha.length - 1;
      if (x >= alpha[n]) {
        return x == alpha[n] ? beta[n] : 0;
      }
      int lo = 0;
      int hi = n;
      while (hi - lo > 1) {
        int mid = (lo + hi) >>> 1;
        if (alpha[mid] <= x) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      double width = alpha[hi] - alpha[lo];
      if (width == 0) {
        return Math.min(beta[lo], beta[hi]);
      }
      return beta[lo] + (x - alpha[lo]) / width * (beta[hi] - beta[lo]);
    }

    PiecewiseLinearTradeoff curve() {
      Integer[] order = new Integer[size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      return DiscretePair.fromSortedAtoms(order, p, q);
    }

    /** Sorts the first m atoms by decreasing log-ratio and merges ties (see {@link Builder}). */
    static Atoms sortedMerged(double[] p, double[] q, double[] l, int m) {
      Integer[] order = new Integer[m];
      for (int i = 0; i < m; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (i, j) -> Double.compare(l[j], l[i]));
      Builder out = new Builder(m);
      for (int i : order) {
        out.add(p[i], q[i], l[i]);
      }
      return out.build();
    }
  }

  /**
   * Collects atoms arriving in non-increasing log-ratio order, merging each into the current group
   * when its log-ratio is within TIE·max(1, |ℓ|) of the group's top ℓ: Q-masses add, and the P-mass
   * is rounded down to q·e^{−ℓ} (safe, see the class comment).
   */
  private static final class Builder {
    private final double[] p;
    private final double[] q;
    private final double[] l;
    private int size;

    Builder(int capacity) {
      p = new double[capacity];
      q = new double[capacity];
      l = new double[capacity];
    }

    void add(double pp, double qq, double ll) {
      if (size > 0) {
        double top = l[size - 1];
        boolean tie = Double.isInfinite(top) ? ll == top
            : ll >= top - TIE * Math.max(1, Math.abs(top));
        if (tie) {
          q[size - 1] += qq;
          boolean exact = ll == top || Double.isInfinite(top);
          p[size - 1] += exact ? pp : Math.min(pp, qq * Math.exp(-top));
          return;
        }
      }
      p[size] = pp;
      q[size] = qq;
      l[size] = ll;
      size++;
    }

    Atoms build() {
      return new Atoms(Arrays.copyOf(p, size), Arrays.copyOf(q, size), Arrays.copyOf(l, size));
    }
  }
}
