package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Arrays;
import java.util.function.IntToDoubleFunction;
import org.apache.commons.numbers.gamma.LogGamma;

/**
 * Rényi DP of a mechanism run on a subsample drawn without replacement, under replace-one
 * neighbouring: Wang, Balle and Kasiviswanathan 2019, "Subsampled Rényi Differential Privacy and
 * Analytical Moments Accountant" (AISTATS), Theorem 9, the general upper bound.
 *
 * <p>Statement implemented. Let M take datasets of size m and satisfy (j, ε(j))-RDP for every
 * integer j ≥ 2 and ε(∞)-DP (ε(∞) = +∞ when M has no pure-DP bound), both with respect to
 * replacing one record. Let M∘subsample draw m of the n records uniformly without replacement and
 * run M on them; γ = m/n. Then for every integer α ≥ 2, M∘subsample is (α, ε′(α))-RDP with respect
 * to replacing one record, where
 *
 * <pre>
 *   ε′(α) ≤ 1/(α−1) · log(1 + γ² C(α,2) min{4(e^{ε(2)} − 1), e^{ε(2)} min{2, (e^{ε(∞)} − 1)²}}
 *                         + Σ_{j=3}^{α} γ^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j}).</pre>
 *
 * This is the statement as printed in the paper (transcribed from memory of the paper and checked
 * against the structure of its proof: the j-th term bounds the j-th binomial moment
 * γ^j C(α,j) E[((p − p′)/p′)^j] of the mixture's likelihood ratio, by 2 e^{(j−1)ε(j)} and by
 * (e^{ε(∞)} − 1)^j e^{(j−1)ε(j)} through the pointwise pure-DP bound; the j = 2 term additionally
 * has the χ²-type bound 4(e^{ε(2)} − 1)). The tests check it against exact Rényi divergences of
 * a subsampled discrete-Laplace counting mechanism, which it must dominate.
 *
 * <p>Inner values above ε(∞) are lowered to ε(∞) (every Rényi divergence of an ε(∞)-DP mechanism
 * is at most ε(∞)), which is valid and keeps inconsistent inputs from producing ∞ − ∞.
 *
 * <p>In addition, the subsampled mechanism is never less private than M itself at the same order
 * (its output law is a uniform mixture of M on replace-one neighbours and of identical pairs, and
 * e^{(α−1)D_α} is jointly convex), and when M is ε(∞)-DP the subsampled mechanism is
 * log(1 + γ(e^{ε(∞)} − 1))-DP (Balle, Barthe and Gaboardi 2018, Theorem 9, δ = 0), which bounds
 * every Rényi divergence. The answer is the least of the three:
 * min{WBK bound, ε(⌈α⌉), log(1 + γ(e^{ε(∞)} − 1))}.
 *
 * <p>Non-integer orders α &gt; 1 are answered with the value at ⌈α⌉ (at 2 for α in (1, 2)): Rényi
 * divergence is non-decreasing in the order, so this is an upper bound (the safe direction).
 *
 * <p>Conventions: ε(j) is the replace-one RDP of the inner mechanism. For a Gaussian event the
 * σ of the event is already divided by the replace-one L2 sensitivity (for a sum of records of
 * norm ≤ C that is 2C, not the add/remove sensitivity C).
 *
 * <p>Numerics: everything is summed in log space (log-sum-exp over j, so e^{(j−1)ε(j)} never
 * overflows). log C(α, j) = log α! − log j! − log (α − j)! from one table of log-gamma values
 * (each within a few ulps) shared by all orders of a call, so a whole grid costs one pass of
 * α terms per order. The logarithm of the sum is then raised by an absolute margin of
 * 16u·M + 2(α + 8)u (u = 2^−53; M the largest magnitude of any summand of a log-term, with
 * 4 log α! standing in for the binomial), which exceeds the rounding error of forming the
 * log-terms and of the log-sum-exp; the result is an upper bound on the formula's exact value.
 * Orders above {@value #MAX_ORDER} are refused (the sum has α terms).
 */
public final class SampledWithoutReplacementRdp {

  /** The largest order evaluated (after rounding up to an integer). */
  public static final int MAX_ORDER = 1 << 16;

  private static final double UNIT_ROUNDOFF = 0x1.0p-53;
  private static final double LOG_2 = Math.log(2);
  private static final double LOG_4 = Math.log(4);

  private SampledWithoutReplacementRdp() {}

  /**
   * ε′(α) of the subsampled mechanism: [WBK19, Theorem 9] at ⌈α⌉, or the inner ε(⌈α⌉), or the
   * amplified pure-DP bound, whichever is least.
   *
   * @param gamma sampling ratio γ = m/n in (0, 1] (round it up if it is not exact)
   * @param innerRdp ε(j) ≥ 0 of the inner mechanism at integer orders j ≥ 2 (+∞ allowed)
   * @param innerPureEpsilon ε(∞) ≥ 0 of the inner mechanism, +∞ if it has none
   * @param alpha order α in (1, {@value #MAX_ORDER}]; non-integer orders use ⌈α⌉
   */
  public static double epsilon(
      double gamma, IntToDoubleFunction innerRdp, double innerPureEpsilon, double alpha) {
    return epsilons(gamma, innerRdp, innerPureEpsilon, new double[] {alpha})[0];
  }

  /**
   * {@link #epsilon} at several orders, sharing the inner curve and the log-factorial table.
   *
   * @param gamma sampling ratio γ = m/n in (0, 1] (round it up if it is not exact)
   * @param innerRdp ε(j) ≥ 0 of the inner mechanism at integer orders j ≥ 2 (+∞ allowed); called
   *     once per j up to the largest ⌈α⌉
   * @param innerPureEpsilon ε(∞) ≥ 0 of the inner mechanism, +∞ if it has none
   * @param orders orders α in (1, {@value #MAX_ORDER}], any order
   */
  public static double[] epsilons(
      double gamma, IntToDoubleFunction innerRdp, double innerPureEpsilon, double[] orders) {
    Require.inClosedRange("gamma", gamma, Double.MIN_VALUE, 1);
    Require.nonNull("innerRdp", innerRdp);
    if (!(innerPureEpsilon >= 0)) {
      throw new IllegalArgumentException(
          "innerPureEpsilon must be >= 0 (or +Infinity), but was " + innerPureEpsilon);
    }
    Require.nonNull("orders", orders);
    int largest = 2;
    for (int i = 0; i < orders.length; i++) {
      Require.renyiOrder(orders.length == 1 ? "alpha" : "orders[" + i + "]", orders[i]);
      if (orders[i] > MAX_ORDER) {
        throw new IllegalArgumentException(
            (orders.length == 1 ? "alpha" : "orders[" + i + "]")
                + " must be <= " + MAX_ORDER + ", but was " + orders[i]);
      }
      largest = Math.max(largest, (int) Math.ceil(orders[i]));
    }
    Theorem9 theorem = new Theorem9(gamma, innerRdp, innerPureEpsilon, largest);
    double amplifiedPure =
        WithoutReplacementAmplification.amplifiedEpsilon(innerPureEpsilon, gamma);
    double[] byInteger = new double[largest + 1];
    Arrays.fill(byInteger, Double.NaN);
    double[] e = new double[orders.length];
    for (int i = 0; i < e.length; i++) {
      int order = Math.max(2, (int) Math.ceil(orders[i]));
      if (Double.isNaN(byInteger[order])) {
        byInteger[order] =
            Math.min(Math.min(theorem.inner[order], amplifiedPure), theorem.upperBound(order));
      }
      e[i] = byInteger[order];
    }
    return e;
  }

  /** The [WBK19, Theorem 9] bound at an integer order α ≥ 2, rounded up (no capping). */
  static double upperBound(
      double gamma, IntToDoubleFunction innerRdp, double innerPureEpsilon, int alpha) {
    return new Theorem9(gamma, innerRdp, innerPureEpsilon, alpha).upperBound(alpha);
  }

  /** The inner curve (clamped to ε(∞)) and log k! for k ≤ the largest order. */
  private static final class Theorem9 {
    private final double logGamma;
    private final double innerPure;
    private final double logExpm1Pure; // log(e^{ε(∞)} − 1): −∞ for 0, +∞ for +∞
    private final double[] inner; // ε(j), j = 2..largest; ε(j) ≤ ε(∞)
    private final double[] logFactorial;

    Theorem9(double gamma, IntToDoubleFunction innerRdp, double innerPure, int largest) {
      this.logGamma = Math.log(gamma);
      this.innerPure = innerPure;
      this.logExpm1Pure = logExpm1(innerPure);
      this.inner = new double[largest + 1];
      this.logFactorial = new double[largest + 1];
      for (int j = 2; j <= largest; j++) {
        double e = innerRdp.applyAsDouble(j);
        if (!(e >= 0)) {
          throw new IllegalArgumentException(
              "innerRdp(" + j + ") must be >= 0 (or +Infinity), but was " + e);
        }
        inner[j] = Math.min(innerPure, e);
      }
      for (int k = 2; k <= largest; k++) {
        logFactorial[k] = LogGamma.value(k + 1.0);
      }
    }

    double upperBound(int alpha) {
      double logFactAlpha = logFactorial[alpha];
      double binomialMagnitude = 4 * logFactAlpha;
      double[] logTerms = new double[alpha - 1];

      double epsilon2 = inner[2];
      double logCoef2 = Math.log(alpha * (alpha - 1.0) / 2);
      double chiSquare = LOG_4 + logExpm1(epsilon2);
      double pure2 = epsilon2 + Math.min(LOG_2, 2 * logExpm1Pure);
      double min2 = Math.min(chiSquare, pure2);
      logTerms[0] = 2 * logGamma + logCoef2 + min2;
      double magnitude =
          Math.abs(2 * logGamma) + Math.abs(logCoef2) + finiteAbs(min2) + Math.abs(epsilon2);

      for (int j = 3; j <= alpha; j++) {
        double factor = Math.min(LOG_2, j * logExpm1Pure);
        if (factor == Double.NEGATIVE_INFINITY) {
          logTerms[j - 2] = Double.NEGATIVE_INFINITY; // ε(∞) = 0: the term is exactly 0
          continue;
        }
        double logCoef = logFactAlpha - logFactorial[j] - logFactorial[alpha - j];
        double moment = (j - 1) * inner[j];
        logTerms[j - 2] = j * logGamma + logCoef + moment + factor;
        magnitude =
            Math.max(
                magnitude,
                Math.abs(j * logGamma) + binomialMagnitude + Math.abs(moment) + Math.abs(factor));
      }
      double logSum = LogMath.logSumExp(logTerms);
      if (logSum == Double.NEGATIVE_INFINITY) {
        return 0;
      }
      double margin = 16 * UNIT_ROUNDOFF * magnitude + 2 * (alpha + 8.0) * UNIT_ROUNDOFF;
      double bound = LogMath.logAddExp(0, logSum + margin) / (alpha - 1);
      return Math.nextUp(Math.nextUp(bound)); // the division and the final log1p: a few ulps
    }
  }

  /** log(e^x − 1) for x ≥ 0 without cancellation: x + log(1 − e^{−x}). */
  static double logExpm1(double x) {
    if (x == Double.POSITIVE_INFINITY) {
      return x;
    }
    return x + LogMath.log1mExp(-x);
  }

  private static double finiteAbs(double x) {
    return Double.isFinite(x) ? Math.abs(x) : 0;
  }
}
