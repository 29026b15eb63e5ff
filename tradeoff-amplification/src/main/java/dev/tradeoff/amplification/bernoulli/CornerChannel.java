package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The channel Bern_k restricted to the c-corners {c, 1 − c}^d (Appendix A, Algorithm 3), with its
 * outputs reduced to a sufficient statistic: k samples of a corner z produce, in coordinate ℓ, a
 * Binomial(k, z_ℓ) count of ones, independently across coordinates. So the (2^d)^k outcomes of
 * Algorithm 3 collapse to the (k + 1)^d count vectors s, with
 *
 * <pre>M[s][i] = Π_ℓ C(k, s_ℓ) z_{iℓ}^{s_ℓ} (1 − z_{iℓ})^{k − s_ℓ},</pre>
 *
 * where corner i has z_{iℓ} = c when bit ℓ of i is set and 1 − c otherwise. The Rényi sum of
 * equation (8) is unchanged by this reduction (the multiplicities enter both distributions alike),
 * and for d = 1 it is exactly the sum over j of Algorithm 2 in its Appendix A form.
 *
 * <p>Rows are stored scaled by their largest entry, with that entry's logarithm kept aside, so
 * that log(M x) is computed without underflow even when c^{dk} is below the smallest double.
 */
final class CornerChannel {

  final int corners;
  final int outcomes;
  private final double[][] scaled;
  private final double[] logRowMax;
  private final int[][] descending;

  CornerChannel(double c, int dimension, int samples) {
    this.corners = 1 << dimension;
    int m = 1;
    for (int l = 0; l < dimension; l++) {
      m = Math.multiplyExact(m, samples + 1);
    }
    this.outcomes = m;
    this.scaled = new double[outcomes][corners];
    this.logRowMax = new double[outcomes];
    this.descending = new int[outcomes][];
    double logC = Math.log(c);
    double log1mC = Math.log1p(-c);
    for (int s = 0; s < outcomes; s++) {
      double[] logRow = new double[corners];
      for (int i = 0; i < corners; i++) {
        int rest = s;
        double v = 0;
        for (int l = 0; l < dimension; l++) {
          int ones = rest % (samples + 1);
          rest /= samples + 1;
          boolean atC = ((i >>> l) & 1) == 1;
          v += LogMath.logBinomial(samples, ones)
              + ones * (atC ? logC : log1mC)
              + (samples - ones) * (atC ? log1mC : logC);
        }
        logRow[i] = v;
      }
      double max = Arrays.stream(logRow).max().orElseThrow();
      logRowMax[s] = max;
      for (int i = 0; i < corners; i++) {
        scaled[s][i] = Math.exp(logRow[i] - max);
      }
      double[] row = scaled[s];
      descending[s] =
          IntStream.range(0, corners)
              .boxed()
              .sorted(Comparator.comparingDouble((Integer i) -> -row[i]))
              .mapToInt(Integer::intValue)
              .toArray();
    }
  }

  /** log Σ_i M[s][i]·x_i. */
  double logMix(int s, double[] x) {
    double[] row = scaled[s];
    double sum = 0;
    for (int i = 0; i < corners; i++) {
      sum += row[i] * x[i];
    }
    return Math.log(sum) + logRowMax[s];
  }

  /**
   * log of the largest (or smallest) Σ_i M[s][i]·x_i over x in the box [lower, upper] with Σ x_i =
   * 1: a fractional knapsack, filled greedily by decreasing (or increasing) M[s][i]. The box must
   * be consistent (Σ lower ≤ 1 ≤ Σ upper).
   */
  double logExtremeMix(int s, double[] lower, double[] upper, boolean largest) {
    double[] row = scaled[s];
    int[] order = descending[s];
    double sum = 0;
    double remaining = 1;
    for (int i = 0; i < corners; i++) {
      sum += row[i] * lower[i];
      remaining -= lower[i];
    }
    for (int r = 0; r < corners && remaining > 0; r++) {
      int i = order[largest ? r : corners - 1 - r];
      double add = Math.min(upper[i] - lower[i], remaining);
      sum += row[i] * add;
      remaining -= add;
    }
    return Math.log(sum) + logRowMax[s];
  }

  /**
   * log of the Rényi sum Σ_s (M x)_s^α (M y)_s^{1−α} = e^{(α−1) R_α(Bern_k(P), Bern_k(Q))} for P, Q
   * with masses x, y on the corners (equation 8).
   */
  double logRenyiSum(double alpha, double[] x, double[] y) {
    double[] terms = new double[outcomes];
    for (int s = 0; s < outcomes; s++) {
      terms[s] = alpha * logMix(s, x) + (1 - alpha) * logMix(s, y);
    }
    return LogMath.logSumExp(terms);
  }
}
