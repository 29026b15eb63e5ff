package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Arrays;

/**
 * The exact law of the number N of mechanism invocations when [ExPost25, Algorithm 3]
 * runs d copies of one ε-DP mechanism with 𝓔 = Geom_{e^{−ε′}} (the Theorem 11 curve of Figure 1):
 * given k, N ~ Binomial(d, q_k) with q_k = e^{−εk}, so with p = e^{−ε′}
 *
 * <pre>
 *   Pr[N = n] = Σ_k (1 − p)p^k · C(d, n) q_k^n (1 − q_k)^{d−n}
 *   E[N] = d·E[q],  Var[N] = d·(E[q] − E[q²]) + d²·(E[q²] − E[q]²),
 *   E[q^m] = (1 − p)/(1 − p e^{−mε})    (closed-form geometric series)
 * </pre>
 *
 * <p>The mean and variance are the closed forms (relative error a few ulps). The probability mass
 * function is summed in log space over k = 0..K with K = ⌈60/ε′⌉; the omitted tail has total mass
 * p^{K+1} ≤ e^{−60} ≈ 9·10^−27, which is {@link #truncatedMass()}: every pmf value is exact up to
 * that additive amount (and rounding).
 */
public final class RunCountDistribution {

  private final double epsilon;
  private final double epsilonPrime;
  private final int copies;
  private final double[] pmf;
  private final double truncatedMass;

  private RunCountDistribution(double epsilon, double epsilonPrime, int copies) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.epsilonPrime = Require.positive("epsilonPrime", epsilonPrime);
    this.copies = Require.positive("candidates", copies);
    long last = (long) Math.ceil(60 / epsilonPrime);
    Require.that(last <= 50_000_000L, "epsilonPrime", "must be >= 1.2e-6 for the exact sum", epsilonPrime);
    double logOneMinusP = Math.log(-Math.expm1(-epsilonPrime));
    double[] logBinomials = new double[copies + 1];
    for (int n = 0; n <= copies; n++) {
      logBinomials[n] = LogMath.logBinomial(copies, n);
    }
    double[] acc = new double[copies + 1];
    Arrays.fill(acc, Double.NEGATIVE_INFINITY);
    for (long k = 0; k <= last; k++) {
      double logGeom = logOneMinusP - epsilonPrime * k;
      double logQ = -epsilon * k;
      double logOneMinusQ = k == 0 ? Double.NEGATIVE_INFINITY : LogMath.log1mExp(logQ);
      for (int n = 0; n <= copies; n++) {
        double t =
            logGeom
                + logBinomials[n]
                + (n == 0 ? 0 : n * logQ)
                + (n == copies ? 0 : (copies - n) * logOneMinusQ);
        acc[n] = LogMath.logAddExp(acc[n], t);
      }
    }
    this.pmf = new double[copies + 1];
    for (int n = 0; n <= copies; n++) {
      pmf[n] = Math.exp(acc[n]);
    }
    this.truncatedMass = Math.exp(-epsilonPrime * (last + 1));
  }

  /** The law of N for {@code copies} copies of an ε-DP mechanism and additional budget ε′. */
  public static RunCountDistribution of(double epsilon, double epsilonPrime, int copies) {
    return new RunCountDistribution(epsilon, epsilonPrime, copies);
  }

  /** E[q^m] = (1 − e^{−ε′})/(1 − e^{−ε′−mε}). */
  private static double moment(double epsilon, double epsilonPrime, int m) {
    return Math.expm1(-epsilonPrime) / Math.expm1(-epsilonPrime - m * epsilon);
  }

  /** E[N] (closed form). */
  public double mean() {
    return mean(epsilon, epsilonPrime, copies);
  }

  /** Var[N] (closed form). */
  public double variance() {
    return variance(epsilon, epsilonPrime, copies);
  }

  /** E[N] for d copies, without building the pmf. */
  public static double mean(double epsilon, double epsilonPrime, int copies) {
    Require.positive("epsilon", epsilon);
    Require.positive("epsilonPrime", epsilonPrime);
    Require.positive("candidates", copies);
    return copies * moment(epsilon, epsilonPrime, 1);
  }

  /** Var[N] for d copies, without building the pmf. */
  public static double variance(double epsilon, double epsilonPrime, int copies) {
    double m1 = mean(epsilon, epsilonPrime, copies) / copies;
    double m2 = moment(epsilon, epsilonPrime, 2);
    return copies * (m1 - m2) + (double) copies * copies * (m2 - m1 * m1);
  }

  /** Standard deviation of N. */
  public double standardDeviation() {
    return Math.sqrt(variance());
  }

  /** Pr[N = n] for n in 0..d (0 outside). */
  public double probability(int n) {
    return n < 0 || n > copies ? 0 : pmf[n];
  }

  /** Pr[N = 0]: every copy dropped, so Algorithm 3 returns ⊥. */
  public double probabilityNone() {
    return pmf[0];
  }

  /** Upper bound on the mass omitted from the pmf sum. */
  public double truncatedMass() {
    return truncatedMass;
  }

  /** d. */
  public int copies() {
    return copies;
  }
}
