package dev.tradeoff.experiments.expost;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The synthetic message-board data of [ExPost25, Section 6.1] (after Rogers et al. 2023): N
 * users, each posting in one of 300 threads drawn from the power law Pr[x] ∝ x^{−0.75} on x ∈ [300]
 * (the paper prints x^{0.75}; the decreasing law is the one that reproduces its Doubling column, see
 * REPRODUCTION.md), turned into a histogram of thread counts; and the paper's acceptance test for a
 * noisy count ŷ with noise standard deviation σ: |ŷ| ≥ σ and |(ŷ + σ)/(ŷ − σ)| ∈ [0.9, 1.1], with σ =
 * 1/ε (the experiment's convention; the Laplace standard deviation would be √2/ε).
 */
public final class MessageBoard {

  /** The number of threads. */
  public static final int THREADS = 300;

  /** The power-law exponent (density ∝ x^{−0.75}). */
  public static final double EXPONENT = -0.75;

  private MessageBoard() {}

  /** Thread counts (index x − 1 for thread x) of N users drawn from the power law. */
  public static long[] histogram(int users, RandomGenerator random) {
    Require.positive("users", users);
    double[] cdf = new double[THREADS];
    double total = 0;
    for (int x = 1; x <= THREADS; x++) {
      total += Math.pow(x, EXPONENT);
      cdf[x - 1] = total;
    }
    long[] counts = new long[THREADS];
    for (int n = 0; n < users; n++) {
      double u = random.nextDouble() * total;
      int lo = 0;
      int hi = THREADS - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cdf[mid] > u) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      counts[lo]++;
    }
    return counts;
  }

  /** The paper's accuracy check for a noisy count released at budget ε (σ = 1/ε). */
  public static boolean accept(double estimate, double epsilon) {
    double sigma = 1 / epsilon;
    if (Math.abs(estimate) < sigma) {
      return false;
    }
    double ratio = Math.abs((estimate + sigma) / (estimate - sigma));
    return ratio >= 0.9 && ratio <= 1.1;
  }

  /** Whether the estimate is within 10% relative error of the true count. */
  public static boolean precise(double estimate, long truth) {
    return truth > 0 && Math.abs(estimate - truth) < 0.1 * truth;
  }

  /** The budget grid ε_i = 0.001·(√2)^i, i = 0, 1, …, up to the largest value ≤ {@code max}. */
  public static double[] budgetGrid(double max) {
    Require.positive("max", max);
    int n = 0;
    while (0.001 * Math.pow(Math.sqrt(2), n + 1) <= max) {
      n++;
    }
    double[] grid = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      grid[i] = 0.001 * Math.pow(Math.sqrt(2), i);
    }
    return grid;
  }
}
