package dev.tradeoff.shuffle.analysis;

import java.util.Arrays;

/**
 * Accumulates (α, γ) points into their upper concave envelope, discarding on arrival every point
 * that lies on or below the current envelope (it cannot become a vertex later: the envelope only
 * rises as points are added). Keeps the worst-case analysis at O(points · log vertices) time and
 * O(vertices) memory.
 */
final class WorstCaseCurveBuilder {

  private static final int REBUILD_AT = 1 << 14;

  private double[] hullAlphas = {0, 1};
  private double[] hullPowers = {0, 1};
  private final double[] pendingAlphas = new double[REBUILD_AT];
  private final double[] pendingPowers = new double[REBUILD_AT];
  private int pending;

  void add(double alpha, double power) {
    double a = Math.min(1, Math.max(0, alpha));
    double g = Math.min(1, Math.max(0, power));
    if (g <= hullPower(a)) {
      return;
    }
    pendingAlphas[pending] = a;
    pendingPowers[pending] = g;
    pending++;
    if (pending == REBUILD_AT) {
      rebuild();
    }
  }

  private double hullPower(double a) {
    int i = Arrays.binarySearch(hullAlphas, a);
    if (i >= 0) {
      return hullPowers[i];
    }
    int right = -i - 1;
    int left = right - 1;
    double t = (a - hullAlphas[left]) / (hullAlphas[right] - hullAlphas[left]);
    return hullPowers[left] + t * (hullPowers[right] - hullPowers[left]);
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
