package dev.tradeoff.mechanisms.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/** Goodness-of-fit statistics for the sampler tests (fixed seeds make each verdict reproducible). */
public final class GoodnessOfFit {

  /** The significance level every fit test in this module is held to. */
  public static final double ALPHA = 1e-4;

  private GoodnessOfFit() {}

  /**
   * Pearson χ² p-value of observed counts against category probabilities (which must sum to 1).
   * Categories with expected count below 5 are merged into their neighbour.
   */
  public static double chiSquarePValue(long[] observed, double[] probabilities) {
    long n = 0;
    for (long o : observed) {
      n += o;
    }
    List<double[]> bins = new ArrayList<>(); // {observed, expected}
    double accO = 0;
    double accE = 0;
    for (int i = 0; i < observed.length; i++) {
      accO += observed[i];
      accE += n * probabilities[i];
      if (accE >= 5) {
        bins.add(new double[] {accO, accE});
        accO = 0;
        accE = 0;
      }
    }
    if (accE > 0 || accO > 0) {
      if (bins.isEmpty()) {
        bins.add(new double[] {accO, accE});
      } else {
        double[] last = bins.get(bins.size() - 1);
        last[0] += accO;
        last[1] += accE;
      }
    }
    if (bins.size() < 2) {
      throw new IllegalStateException("need at least two bins with expected count >= 5");
    }
    double stat = 0;
    for (double[] b : bins) {
      stat += (b[0] - b[1]) * (b[0] - b[1]) / b[1];
    }
    return ChiSquaredDistribution.of(bins.size() - 1).survivalProbability(stat);
  }

  /**
   * χ² p-value of integer samples against a pmf on the integers: one category per integer in
   * [lo, hi] (the range where the expected count is at least 5 around {@code centre}) and one
   * category for everything outside.
   */
  public static double chiSquarePValue(long[] samples, LongToDoubleFunction pmf, long centre) {
    int n = samples.length;
    long lo = centre;
    while (n * pmf.applyAsDouble(lo - 1) >= 5) {
      lo--;
    }
    long hi = centre;
    while (n * pmf.applyAsDouble(hi + 1) >= 5) {
      hi++;
    }
    int inside = (int) (hi - lo + 1);
    long[] observed = new long[inside + 1];
    double[] probabilities = new double[inside + 1];
    double mass = 0;
    for (int i = 0; i < inside; i++) {
      probabilities[i + 1] = pmf.applyAsDouble(lo + i);
      mass += probabilities[i + 1];
    }
    probabilities[0] = Math.max(0, 1 - mass);
    for (long s : samples) {
      if (s < lo || s > hi) {
        observed[0]++;
      } else {
        observed[(int) (s - lo) + 1]++;
      }
    }
    return chiSquarePValue(observed, probabilities);
  }

  /** √n·D_n, the scaled Kolmogorov–Smirnov statistic of samples against a continuous CDF. */
  public static double scaledKolmogorovSmirnov(double[] samples, DoubleUnaryOperator cdf) {
    double[] sorted = samples.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(sorted[i]);
      d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
    }
    return Math.sqrt(n) * d;
  }

  /**
   * The critical value of √n·D_n at level {@link #ALPHA} from the Kolmogorov distribution,
   * sqrt(−log(α/2)/2) ≈ 2.23.
   */
  public static double kolmogorovCriticalValue() {
    return Math.sqrt(-Math.log(ALPHA / 2) / 2);
  }

  /** |observed − np| / sqrt(np(1 − p)) for a binomial count. */
  public static double binomialZ(long successes, long trials, double p) {
    double mean = trials * p;
    return Math.abs(successes - mean) / Math.sqrt(trials * p * (1 - p));
  }
}
