package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import java.util.random.RandomGenerator;

/**
 * [StabVal13, Algorithm 5, appendix Section 6.3]: the differentially private
 * histogram density estimator (a variant of Machanavajjhala et al.). With bins I_i of width h:
 * ñ_i = max(0, n_i + 2R_i/α) with R_i standard Laplace, n̂ = Σ ñ_i, f̂ = ñ_i/(h n̂) on I_i.
 *
 * <p>Guarantee: α-DP ({@link PureDp}) for neighbouring training sets that differ in the value of
 * one point (replace-one): the count vector then moves by at most 2 in L1, so Laplace noise of scale
 * 2/α per count suffices; clipping and normalising are post-processing. The noise is Tradeoff's
 * snapped Laplace ({@link LaplaceMechanism} with sensitivity 2): exactly α-DP in floating point,
 * scale at most (1 + 2^−40)·2/α, outputs on a lattice of spacing g ≤ 2^−39.
 *
 * <p>If every noisy count clips to 0 (n̂ = 0), the estimate is the uniform density, also
 * post-processing. Theorem 6's event (see {@link HistogramStability}) excludes that case.
 */
public final class DpHistogramEstimator {

  private DpHistogramEstimator() {}

  /** The noise of Algorithm 5: Laplace of scale 2/α per count, snapped. */
  public static LaplaceMechanism noise(double alpha) {
    return LaplaceMechanism.of(alpha, 2);
  }

  /** The guarantee of one estimate: α-DP under replace-one neighbouring. */
  public static PureDp guarantee(double alpha) {
    return new PureDp(Require.positive("alpha", alpha));
  }

  /**
   * Algorithm 5.
   *
   * @param data the training points, each in [0, 1]
   * @param bins 1/h, at least 1
   * @param alpha α &gt; 0
   */
  public static HistogramDensity fit(double[] data, int bins, double alpha, RandomGenerator random) {
    return fitCounts(counts(data, bins), alpha, random);
  }

  /** The (non-private) bin counts n_i. */
  public static long[] counts(double[] data, int bins) {
    double[] x = Require.finiteValues("data", data);
    Require.positive("bins", bins);
    long[] n = new long[bins];
    for (int j = 0; j < x.length; j++) {
      Require.inClosedRange("data[" + j + "]", x[j], 0, 1);
      n[HistogramDensity.binOf(x[j], bins)]++;
    }
    return n;
  }

  /** Algorithm 5 from the counts n_i (steps 3–6). */
  public static HistogramDensity fitCounts(long[] counts, double alpha, RandomGenerator random) {
    Require.nonNull("counts", counts);
    Require.positive("bins", counts.length);
    LaplaceMechanism laplace = noise(alpha);
    Require.nonNull("random", random);
    double[] noisy = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      Require.that(counts[i] >= 0, "counts[" + i + "]", "must be >= 0", counts[i]);
      noisy[i] = laplace.release((double) counts[i], random);
    }
    return fromNoisyCounts(noisy);
  }

  /**
   * Steps 4 and 6 from the noisy counts n_i + 2R_i/α: clip at 0 and normalise (uniform if
   * everything clips). Deterministic: the map F(T, h, α, R) of the stability analysis.
   */
  public static HistogramDensity fromNoisyCounts(double[] noisyCounts) {
    double[] c = Require.finiteValues("noisyCounts", noisyCounts);
    int bins = c.length;
    double total = 0;
    for (int i = 0; i < bins; i++) {
      c[i] = Math.max(0, c[i]);
      total += c[i];
    }
    double[] heights = new double[bins];
    if (total == 0) {
      java.util.Arrays.fill(heights, 1.0);
      return new HistogramDensity(heights);
    }
    for (int i = 0; i < bins; i++) {
      heights[i] = c[i] * bins / total;
    }
    return new HistogramDensity(heights);
  }
}
