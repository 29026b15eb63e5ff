package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * Conversions between privacy profiles and trade-off functions (Dong, Roth and Su 2022, Section
 * 2.4).
 *
 * <p>Profile → trade-off: a mechanism that is (ε, δ(ε))-DP for every ε is f_{ε,δ(ε)}-DP for every
 * ε, hence f-DP for f = sup_ε f_{ε,δ(ε)} (the dual direction of Proposition 2.12). Evaluated on a
 * finite grid of ε the
 * supremum is taken over fewer curves, so the result lies at or BELOW the true sup_ε curve: a
 * valid, safe lower bound, which converges to it as the grid is refined. Composing back with
 * {@link TradeoffProfile} never reports a smaller δ than the input profile's.
 */
public final class Tradeoffs {

  private Tradeoffs() {}

  /**
   * f(α) = max_k max(0, 1 − δ(ε_k) − e^{ε_k} α, e^{−ε_k}(1 − δ(ε_k) − α)) over the given grid: a
   * lower bound (safe direction) on the trade-off function implied by the profile.
   *
   * @param profile δ(ε); each value must lie in [0, 1]
   * @param epsilons the grid, each ≥ 0 and finite (any order, at least one)
   */
  public static PiecewiseLinearTradeoff fromProfile(PrivacyProfile profile, double[] epsilons) {
    Require.nonNull("profile", profile);
    double[] eps = Require.finiteValues("epsilons", epsilons);
    double[] slopes = new double[2 * eps.length];
    double[] intercepts = new double[2 * eps.length];
    int k = 0;
    for (int i = 0; i < eps.length; i++) {
      double e = Require.nonNegative("epsilons[" + i + "]", eps[i]);
      double d = Require.probability("delta(" + e + ")", profile.delta(e));
      if (Double.isInfinite(Math.exp(e))) {
        continue; // a vertical line: dropping it only lowers the envelope (safe)
      }
      slopes[k] = -Math.exp(e);
      intercepts[k] = 1 - d;
      k++;
      slopes[k] = -Math.exp(-e);
      intercepts[k] = Math.exp(-e) * (1 - d);
      k++;
    }
    return upperEnvelopeOfLines(Arrays.copyOf(slopes, k), Arrays.copyOf(intercepts, k));
  }

  /**
   * {@code points} values of ε equally spaced on [0, maxEpsilon], a default grid for
   * {@link #fromProfile(PrivacyProfile, double[])}.
   */
  public static double[] epsilonGrid(double maxEpsilon, int points) {
    Require.positive("maxEpsilon", maxEpsilon);
    Require.that(points >= 2, "points", "must be >= 2", points);
    double[] grid = new double[points];
    for (int i = 0; i < points; i++) {
      grid[i] = maxEpsilon * i / (points - 1);
    }
    return grid;
  }

  /**
   * The trade-off function max(0, max_k (s_k α + c_k)) on [0, 1] for lines that each lie at or
   * below some trade-off function (so s_k ≤ 0 and s_k α + c_k ≤ 1 − α): the upper envelope by the
   * convex-hull trick, then the lower convex envelope of its vertices, which only removes rounding
   * artefacts (never raises the curve).
   */
  static PiecewiseLinearTradeoff upperEnvelopeOfLines(double[] slopes, double[] intercepts) {
    int n = slopes.length;
    Integer[] order = new Integer[n + 1];
    double[] s = Arrays.copyOf(slopes, n + 1);
    double[] c = Arrays.copyOf(intercepts, n + 1);
    s[n] = 0; // the line β = 0
    c[n] = 0;
    for (int i = 0; i <= n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (i, j) -> s[i] != s[j] ? Double.compare(s[i], s[j])
        : Double.compare(c[j], c[i]));
    int[] stack = new int[n + 1];
    int top = 0;
    for (int idx : order) {
      if (top > 0 && s[idx] - s[stack[top - 1]] <= 1e-12 * -s[stack[top - 1]]) {
        // Same slope up to rounding: their crossing is ill-conditioned, so keep only one line.
        // Dropping a line only lowers the envelope (safe); keep the one higher at α = 1/2.
        int prev = stack[top - 1];
        if (s[idx] * 0.5 + c[idx] <= s[prev] * 0.5 + c[prev]) {
          continue;
        }
        top--;
      }
      while (top >= 2 && overtakesEarlier(s, c, stack[top - 2], stack[top - 1], idx)) {
        top--;
      }
      stack[top++] = idx;
    }
    // Drop lines that are only active left of 0 or right of 1.
    int first = 0;
    while (first + 1 < top && crossing(s, c, stack[first], stack[first + 1]) <= 0) {
      first++;
    }
    int last = top - 1;
    while (last - 1 >= first && crossing(s, c, stack[last - 1], stack[last]) >= 1) {
      last--;
    }
    int m = last - first;
    double[] a = new double[m + 2];
    double[] b = new double[m + 2];
    a[0] = 0;
    b[0] = c[stack[first]];
    for (int k = 0; k < m; k++) {
      int l1 = stack[first + k];
      int l2 = stack[first + k + 1];
      double x = crossing(s, c, l1, l2);
      a[k + 1] = x;
      b[k + 1] = Math.max(s[l1] * x + c[l1], s[l2] * x + c[l2]);
    }
    a[m + 1] = 1;
    b[m + 1] = s[stack[last]] + c[stack[last]];
    for (int k = 0; k < a.length; k++) {
      a[k] = Math.min(1, Math.max(0, a[k]));
      b[k] = Math.min(1, Math.max(0, b[k]));
    }
    return PiecewiseLinearTradeoff.lowerConvexEnvelope(a, b);
  }

  /** The α where line j overtakes line i (s_i &lt; s_j). */
  private static double crossing(double[] s, double[] c, int i, int j) {
    return (c[i] - c[j]) / (s[j] - s[i]);
  }

  /** True when line k overtakes line i no later than line j does (so j is never on top). */
  private static boolean overtakesEarlier(double[] s, double[] c, int i, int j, int k) {
    return (c[i] - c[k]) * (s[j] - s[i]) <= (c[i] - c[j]) * (s[k] - s[i]);
  }
}
