package dev.tradeoff.shuffle.analysis;

import java.util.Arrays;

/**
 * Accumulates (α, γ) points into their upper concave envelope, discarding on arrival every point
 * that lies on or below the current envelope (it cannot become a vertex later: the envelope only
 * rises as points are added). Keeps the worst-case analysis at O(points + vertices) time per batch
 * and O(vertices) memory.
 */
final class WorstCaseCurveBuilder {

  private static final int REBUILD_AT = 1 << 14;

  private double[] hullAlphas = {0, 1};
  private double[] hullPowers = {0, 1};
  private final double[] pendingAlphas = new double[REBUILD_AT];
  private final double[] pendingPowers = new double[REBUILD_AT];
  private int pending;

  /**
   * Adds points given in non-decreasing order of α (after clamping to [0, 1]); the envelope is
   * searched only when a point passes the current segment, and only to its right.
   */
  void addAscending(double[] alphas, double[] powers, int count) {
    int seg = 0; // hullAlphas[seg] <= a < hullAlphas[seg + 1], or the last segment
    for (int i = 0; i < count; i++) {
      double a = Math.min(1, Math.max(0, alphas[i]));
      double g = Math.min(1, Math.max(0, powers[i]));
      if (seg + 2 < hullAlphas.length && hullAlphas[seg + 1] <= a) {
        int found = Arrays.binarySearch(hullAlphas, seg + 1, hullAlphas.length, a);
        seg = Math.min(found >= 0 ? found : -found - 2, hullAlphas.length - 2);
      }
      double x0 = hullAlphas[seg];
      double x1 = hullAlphas[seg + 1];
      double envelope = a <= x0 ? hullPowers[seg]
          : hullPowers[seg] + (a - x0) / (x1 - x0) * (hullPowers[seg + 1] - hullPowers[seg]);
      if (g <= envelope) {
        continue;
      }
      pendingAlphas[pending] = a;
      pendingPowers[pending] = g;
      pending++;
      if (pending == REBUILD_AT) {
        rebuild();
        seg = 0;
      }
    }
  }

  /** Sorts the pending points, merges them with the (sorted) hull and recomputes the hull. */
  private void rebuild() {
    double[][] fresh = new double[pending][];
    for (int i = 0; i < pending; i++) {
      fresh[i] = new double[] {pendingAlphas[i], pendingPowers[i]};
    }
    Arrays.sort(fresh, (x, y) -> Double.compare(x[0], y[0]));
    int h = hullAlphas.length;
    double[] a = new double[h + pending];
    double[] g = new double[h + pending];
    int i = 0;
    int j = 0;
    for (int k = 0; k < a.length; k++) {
      if (j >= pending || (i < h && hullAlphas[i] <= fresh[j][0])) {
        a[k] = hullAlphas[i];
        g[k] = hullPowers[i];
        i++;
      } else {
        a[k] = fresh[j][0];
        g[k] = fresh[j][1];
        j++;
      }
    }
    PowerCurve hull = PowerCurve.upperHullOfSorted(a, g);
    hullAlphas = hull.alphas();
    hullPowers = hull.powers();
    pending = 0;
  }

  PowerCurve build() {
    rebuild();
    return PowerCurve.upperHullOfSorted(hullAlphas, hullPowers);
  }
}
