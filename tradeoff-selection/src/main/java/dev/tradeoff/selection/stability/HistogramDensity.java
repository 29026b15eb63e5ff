package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * A histogram density estimate on [0, 1] with equal bins of width h = 1/bins: f̂(x) = height_i for
 * x in bin i = [(i−1)h, ih) (the last bin also holds 1). The output of [StabVal13,
 * Algorithm 5, appendix Section 6.3].
 */
public final class HistogramDensity {

  private final double[] heights;

  /**
   * @param heights the density on each bin, non-negative and finite, integrating to 1 (within
   *     1e-9)
   */
  public HistogramDensity(double[] heights) {
    double[] h = Require.finiteValues("heights", heights);
    double mass = 0;
    for (int i = 0; i < h.length; i++) {
      Require.nonNegative("heights[" + i + "]", h[i]);
      mass += h[i];
    }
    mass /= h.length;
    Require.that(Math.abs(mass - 1) <= 1e-9, "heights", "must integrate to 1", mass);
    this.heights = h;
  }

  /** The number of bins 1/h. */
  public int bins() {
    return heights.length;
  }

  /** The bin width h. */
  public double binWidth() {
    return 1.0 / heights.length;
  }

  /** The heights (a copy). */
  public double[] heights() {
    return heights.clone();
  }

  /** The bin of x in [0, 1]. */
  public int binOf(double x) {
    Require.inClosedRange("x", x, 0, 1);
    return binOf(x, heights.length);
  }

  static int binOf(double x, int bins) {
    return Math.min(bins - 1, (int) Math.floor(x * bins));
  }

  /** f̂(x) for x in [0, 1]. */
  public double density(double x) {
    return heights[binOf(x)];
  }

  /** ∫ f̂(x)² dx = h Σ_i height_i². */
  public double squaredNorm() {
    double s = 0;
    for (double v : heights) {
      s += v * v;
    }
    return s / heights.length;
  }

  /**
   * The validation score q(f̂, V) = −∫ f̂² + (2/m) Σ_j f̂(z_j) of equation (6): an unbiased estimate
   * of ‖f‖² − ‖f̂ − f‖² when V is drawn from f, so higher is better.
   *
   * @param validation the m validation points, each in [0, 1]
   */
  public double score(double[] validation) {
    double[] v = Require.finiteValues("validation", validation);
    double sum = 0;
    for (int j = 0; j < v.length; j++) {
      Require.inClosedRange("validation[" + j + "]", v[j], 0, 1);
      sum += heights[binOf(v[j], heights.length)];
    }
    return -squaredNorm() + 2 * sum / v.length;
  }

  /**
   * The integrated squared error ‖f̂ − f‖² against a Beta density, bin by bin as Σ_i (c_i² h − 2 c_i
   * P_i + Q_i) with P_i = ∫_{bin} f and Q_i = ∫_{bin} f² in closed form: no global cancellation.
   */
  public double integratedSquaredError(BetaDensity truth) {
    Require.nonNull("truth", truth);
    double h = binWidth();
    double total = 0;
    for (int i = 0; i < heights.length; i++) {
      double lo = i * h;
      double hi = i == heights.length - 1 ? 1 : (i + 1) * h;
      double c = heights[i];
      double term = c * c * (hi - lo) - 2 * c * truth.mass(lo, hi) + truth.squaredMass(lo, hi);
      total += Math.max(0, term);
    }
    return total;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HistogramDensity d && Arrays.equals(heights, d.heights);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(heights);
  }

  @Override
  public String toString() {
    return "HistogramDensity" + Arrays.toString(heights);
  }
}
