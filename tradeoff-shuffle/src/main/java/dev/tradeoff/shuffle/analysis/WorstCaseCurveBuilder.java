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

  private PowerCurve hull = PowerCurve.upperConcaveEnvelope(new double[0], new double[0]);
  private double[] hullAlphas = hull.alphas();
  private double[] hullPowers = hull.powers();
  private double[] pendingAlphas = new double[REBUILD_AT];
  private double[] pendingPowers = new double[REBUILD_AT];
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

  private void rebuild() {
    int h = hullAlphas.length;
    double[] a = Arrays.copyOf(hullAlphas, h + pending);
    double[] g = Arrays.copyOf(hullPowers, h + pending);
    System.arraycopy(pendingAlphas, 0, a, h, pending);
    System.arraycopy(pendingPowers, 0, g, h, pending);
    hull = PowerCurve.upperConcaveEnvelope(a, g);
    hullAlphas = hull.alphas();
    hullPowers = hull.powers();
    pending = 0;
  }

  PowerCurve build() {
    rebuild();
    return hull;
  }
}
