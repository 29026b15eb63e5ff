package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;
import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * Exact one-sided Clopper–Pearson confidence bounds for a binomial proportion (Clopper and Pearson
 * 1934). For {@code k} successes in {@code n} trials and error level {@code α}:
 *
 * <ul>
 *   <li>lower bound: the α-quantile of Beta(k, n − k + 1), and exactly 0 when k = 0;
 *   <li>upper bound: the (1 − α)-quantile of Beta(k + 1, n − k), and exactly 1 when k = n.
 * </ul>
 *
 * Each one-sided bound holds with probability at least 1 − α for every true proportion (the
 * interval is exact, i.e. conservative, not asymptotic). The edge cases k = n (lower) and k = 0
 * (upper) have the closed forms α^{1/n} and 1 − α^{1/n}, evaluated as {@code exp(log α / n)} and
 * {@code -expm1(log α / n)} so that tiny upper bounds keep full relative precision.
 *
 * <p>Quantiles come from commons-statistics {@link BetaDistribution}, whose inversion is accurate
 * to a few ulps in relative terms; to stay on the safe side we widen every bound outward by a
 * relative {@value #WIDENING} (lower bounds move down, upper bounds move up). That widening is
 * far below any statistical effect and keeps the auditor's lower bound on ε a valid lower bound.
 */
public final class ClopperPearson {

  /** Relative outward widening applied to every bound to absorb root-finding error. */
  static final double WIDENING = 1e-9;

  private ClopperPearson() {}

  /**
   * One-sided lower confidence bound on the success probability: Pr[p ≥ lower] ≥ 1 − α.
   *
   * @param successes k in [0, n]
   * @param trials n ≥ 1
   * @param alpha error level α in (0, 1)
   */
  public static double lower(long successes, long trials, double alpha) {
    check(successes, trials, alpha);
    if (successes == 0) {
      return 0.0;
    }
    double bound;
    if (successes == trials) {
      bound = Math.exp(Math.log(alpha) / trials);
    } else {
      bound =
          BetaDistribution.of(successes, (double) (trials - successes) + 1)
              .inverseCumulativeProbability(alpha);
    }
    return Math.max(0.0, bound * (1 - WIDENING));
  }

  /**
   * One-sided upper confidence bound on the success probability: Pr[p ≤ upper] ≥ 1 − α. Always
   * strictly positive, so its logarithm is finite.
   *
   * @param successes k in [0, n]
   * @param trials n ≥ 1
   * @param alpha error level α in (0, 1)
   */
  public static double upper(long successes, long trials, double alpha) {
    check(successes, trials, alpha);
    if (successes == trials) {
      return 1.0;
    }
    double bound;
    if (successes == 0) {
      bound = -Math.expm1(Math.log(alpha) / trials);
    } else {
      bound =
          BetaDistribution.of((double) successes + 1, trials - successes)
              .inverseSurvivalProbability(alpha);
    }
    return Math.min(1.0, bound * (1 + WIDENING));
  }

  private static void check(long successes, long trials, double alpha) {
    Require.positive("trials", trials);
    Require.that(
        successes >= 0 && successes <= trials, "successes", "must be in [0, " + trials + "]",
        successes);
    Require.openUnit("alpha", alpha);
  }
}
