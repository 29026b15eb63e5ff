package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.fdp.PiecewiseLinearTradeoff;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.Arrays;

/**
 * A symmetric trade-off function f kept as its power curve γ(α) = 1 − f(α): concave,
 * piecewise linear, from (0, 0) to (1, 1). Storing the power instead of β keeps full relative
 * precision where it matters for privacy: at small α, β = 1 − γ rounds to 1 in double while γ ~ α
 * still carries the likelihood ratio (a difference of 1e−20 in β decides μ).
 *
 * <p>Conversions (all exact for the piecewise-linear curve, up to floating-point rounding of a few
 * ulps, then rounded in the safe direction as stated):
 *
 * <ul>
 *   <li>{@link #tradeoff()}: the curve as a {@link PiecewiseLinearTradeoff}, β = 1 − γ;
 *   <li>{@link #delta(double)}: the privacy profile δ(ε) = sup_α (γ(α) − e^ε α) (Dong, Roth and Su
 *       2022, Proposition 2.12), a maximum over the vertices;
 *   <li>{@link #epsilon(double)}: the smallest ε with δ(ε) ≤ δ in closed form, max_i ln((γ_i −
 *       δ)/α_i), rounded up by one ulp;
 *   <li>{@link #gaussianMu()}: the smallest μ with G_μ ≤ f, max_i Φ⁻¹(1 − α_i) + Φ⁻¹(γ_i) over the
 *       vertices of the half α ≤ f(α) and the fixed point (G_μ is convex, so G_μ ≤ f at those
 *       points implies it on that half; symmetry gives the rest), plus {@link #MU_MARGIN}.
 * </ul>
 */
public final class PowerCurve implements PrivacyProfile {

  /** Absolute margin added to μ for the rounding of Φ⁻¹ (relative error ~1e−15). */
  public static final double MU_MARGIN = 1e-12;

  /**
   * The relative rounding error allowed for in every vertex: {@link #delta} and {@link #epsilon}
   * answer for the least private curve whose powers are up to (1 + ρ)γ_i and whose levels are down
   * to (1 − ρ)α_i. The exact shuffle analysis states its vertices to about 1e−13
   * ({@link ExactShuffleAnalysis}); {@link #pureDp}'s are within a few ulps.
   */
  static final double VERTEX_ROUNDING = 1e-13;

  private static final double UNIT_ROUNDOFF = 0x1.0p-53;

  private final double[] alphas;
  private final double[] powers;

  private PowerCurve(double[] alphas, double[] powers) {
    this.alphas = alphas;
    this.powers = powers;
  }

  /**
   * The least concave majorant of the given (α, γ) points together with (0, 0) and (1, 1),
   * capped at 1: the power curve of the best tests once randomization is allowed.
   */
  public static PowerCurve upperConcaveEnvelope(double[] alphas, double[] powers) {
    Require.nonNull("alphas", alphas);
    Require.nonNull("powers", powers);
    Require.that(alphas.length == powers.length, "powers.length",
        "must equal alphas.length " + alphas.length, powers.length);
    int m = alphas.length;
    double[][] pts = new double[m + 2][];
    for (int i = 0; i < m; i++) {
      pts[i] = new double[] {Require.probability("alphas[" + i + "]", alphas[i]),
          Math.min(1, Require.probability("powers[" + i + "]", powers[i]))};
    }
    pts[m] = new double[] {0, 0};
    pts[m + 1] = new double[] {1, 1};
    Arrays.sort(pts, (p, q) -> Double.compare(p[0], q[0]));
    double[] a = new double[pts.length];
    double[] g = new double[pts.length];
    for (int i = 0; i < pts.length; i++) {
      a[i] = pts[i][0];
      g[i] = pts[i][1];
    }
    return upperHullOfSorted(a, g);
  }

  /**
   * The upper concave hull of points already sorted by α (non-decreasing), which must include
   * (0, 0) and (1, 1) and have powers in [0, 1]; of equal α the largest power is kept.
   */
  static PowerCurve upperHullOfSorted(double[] alphas, double[] powers) {
    double[] a = new double[alphas.length];
    double[] g = new double[alphas.length];
    int k = 0;
    for (int i = 0; i < alphas.length; i++) {
      double x = alphas[i];
      double y = powers[i];
      if (k > 0 && a[k - 1] == x) {
        if (y <= g[k - 1]) {
          continue;
        }
        k--; // same α, larger power: replace
      }
      while (k >= 2 && cross(a[k - 2], g[k - 2], a[k - 1], g[k - 1], x, y) >= 0) {
        k--;
      }
      a[k] = x;
      g[k] = y;
      k++;
    }
    return new PowerCurve(Arrays.copyOf(a, k), Arrays.copyOf(g, k));
  }

  /** (b − a) × (c − a) ≥ 0: b lies on or below the chord ac, so it is not an upper-hull vertex. */
  static double cross(double ax, double ay, double bx, double by, double cx, double cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  }

  /**
   * The power curve of (ε, 0)-DP, γ(α) = min(e^ε α, 1 − e^{−ε}(1 − α)): the trade-off function
   * f_{ε,0} of Dong, Roth and Su (2022), Equation (5).
   */
  public static PowerCurve pureDp(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double l = Math.exp(epsilon);
    double kink = 1 / (l + 1);
    return new PowerCurve(new double[] {0, kink, 1}, new double[] {0, l * kink, 1});
  }

  /**
   * The pointwise minimum of two power curves (the intersection of two valid guarantees, still
   * concave), with vertices at the union of both vertex sets and at every crossing.
   */
  public PowerCurve min(PowerCurve other) {
    Require.nonNull("other", other);
    double[] xs = mergeSorted(alphas, other.alphas);
    double[] outA = new double[2 * xs.length];
    double[] outG = new double[2 * xs.length];
    int k = 0;
    for (int i = 0; i < xs.length; i++) {
      double x = xs[i];
      if (i > 0) {
        double x0 = xs[i - 1];
        double d0 = power(x0) - other.power(x0);
        double d1 = power(x) - other.power(x);
        if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) {
          double t = d0 / (d0 - d1);
          double xc = x0 + t * (x - x0);
          if (xc > x0 && xc < x) {
            outA[k] = xc;
            outG[k] = Math.min(power(xc), other.power(xc));
            k++;
          }
        }
      }
      outA[k] = x;
      outG[k] = Math.min(power(x), other.power(x));
      k++;
    }
    return upperConcaveEnvelope(Arrays.copyOf(outA, k), Arrays.copyOf(outG, k));
  }

  /** γ(α) = 1 − f(α) by linear interpolation. */
  public double power(double alpha) {
    Require.probability("alpha", alpha);
    int i = Arrays.binarySearch(alphas, alpha);
    if (i >= 0) {
      return powers[i];
    }
    int right = -i - 1;
    int left = right - 1;
    double t = (alpha - alphas[left]) / (alphas[right] - alphas[left]);
    return powers[left] + t * (powers[right] - powers[left]);
  }

  /** f(α) = 1 − γ(α). */
  public double beta(double alpha) {
    return 1 - power(alpha);
  }

  /** The curve as a validated trade-off function (β = 1 − γ at the vertices). */
  public PiecewiseLinearTradeoff tradeoff() {
    double[] b = new double[powers.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = 1 - powers[i];
    }
    return PiecewiseLinearTradeoff.lowerConvexEnvelope(alphas.clone(), b);
  }

  /**
   * δ(ε) = max over vertices of ((1 + ρ)γ_i − e^ε (1 − ρ)α_i), at least 0 and at most 1, ρ =
   * {@link #VERTEX_ROUNDING}; the terms are rounded up by a relative 4u beyond (each is formed by
   * three roundings and e^ε carries one ulp).
   */
  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double l = Math.exp(epsilon) * (1 - 2 * UNIT_ROUNDOFF);
    double max = 0;
    for (int i = 0; i < alphas.length; i++) {
      double high = powers[i] * (1 + VERTEX_ROUNDING);
      double low = l * alphas[i] * (1 - VERTEX_ROUNDING);
      max = Math.max(max, high - low + 4 * UNIT_ROUNDOFF * high);
    }
    return Math.min(1, max);
  }

  /**
   * The smallest ε ≥ 0 with δ(ε) ≤ δ in closed form, max_i ln(((1 + ρ)γ_i − δ)/((1 − ρ)α_i)) over
   * the vertices with (1 + ρ)γ_i &gt; δ, ρ = {@link #VERTEX_ROUNDING}, rounded up past the
   * rounding of the subtraction, the division and the logarithm (a relative 4u of the ratio and
   * two ulps of the result), then raised until {@link #delta} as evaluated is at most δ; +∞ if
   * no ε reaches δ. Math.nextUp alone did not cover the rounding of
   * the vertices: the shuffle's exact ε was up to 2.4e−15 below the true value.
   */
  @Override
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    double eps = 0;
    for (int i = 0; i < alphas.length; i++) {
      double high = powers[i] * (1 + VERTEX_ROUNDING);
      if (high > delta) {
        if (alphas[i] == 0) {
          return Double.POSITIVE_INFINITY;
        }
        double ratio = (high - delta) / (alphas[i] * (1 - VERTEX_ROUNDING));
        eps = Math.max(eps, Math.log(ratio * (1 + 4 * UNIT_ROUNDOFF)));
      }
    }
    if (eps <= 0) {
      return 0;
    }
    eps = Math.nextUp(Math.nextUp(eps));
    // δ(·) rounds its own terms up: step on until it agrees that ε reaches δ.
    for (int step = 0; delta(eps) > delta; step++) {
      eps = step < 64 ? Math.nextUp(eps) : eps * (1 + 0x1.0p-40);
    }
    return eps;
  }

  /**
   * The smallest μ with G_μ ≤ T for every symmetric trade-off function T that lies above this
   * curve, plus {@link #MU_MARGIN}; +∞ if f(0) &lt; 1 (γ(0) &gt; 0: no G_μ fits).
   *
   * <p>Only the half α ≤ f(α) is used, where both α and γ are held to full relative precision
   * (near α = 1 the complement 1 − α is rounded). This suffices: if G_μ ≤ f on [0, α*], α* the
   * fixed point f(α*) = α*, then G_μ ≤ T there too, the fixed point of G_μ is at most α* ≤ the
   * fixed point of T, and both T and G_μ are symmetric, so G_μ ≤ T everywhere. On [0, α*] f is
   * linear between the checked points (the vertices and α*) and G_μ is convex, so checking those
   * points is exact: μ ≥ Φ⁻¹(1 − α_i) + Φ⁻¹(γ_i) at each vertex and μ ≥ 2Φ⁻¹(1 − α*).
   */
  public double gaussianMu() {
    double mu = 0;
    for (int i = 0; i < alphas.length; i++) {
      double a = alphas[i];
      double g = powers[i];
      if (a > 1 - g) {
        // The segment (i − 1, i) crosses the diagonal β = α at the fixed point α*.
        double a0 = alphas[i - 1];
        double g0 = powers[i - 1];
        double slope = (g - g0) / (a - a0);
        double fixed = (1 - g0 + slope * a0) / (1 + slope);
        mu = Math.max(mu, 2 * StandardNormal.inverseSurvival(fixed));
        break;
      }
      if (a == 0) {
        if (g > 0) {
          return Double.POSITIVE_INFINITY;
        }
        continue;
      }
      if (g == 0) {
        continue; // f = 1 here: G_μ ≤ 1
      }
      mu = Math.max(mu, StandardNormal.inverseSurvival(a) + StandardNormal.inverseCdf(g));
    }
    return mu + MU_MARGIN;
  }

  /** The vertices' α, increasing from 0 to 1. */
  public double[] alphas() {
    return alphas.clone();
  }

  /** The vertices' γ = 1 − β, non-decreasing from 0 to 1. */
  public double[] powers() {
    return powers.clone();
  }

  public int vertexCount() {
    return alphas.length;
  }

  static double[] mergeSorted(double[] x, double[] y) {
    double[] out = new double[x.length + y.length];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < x.length || j < y.length) {
      double v = (j >= y.length || (i < x.length && x[i] <= y[j])) ? x[i++] : y[j++];
      if (k == 0 || out[k - 1] != v) {
        out[k++] = v;
      }
    }
    return Arrays.copyOf(out, k);
  }
}
