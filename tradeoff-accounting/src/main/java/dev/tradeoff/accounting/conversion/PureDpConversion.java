package dev.tradeoff.accounting.conversion;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;

/**
 * Conversions out of pure ε-DP.
 *
 * <ul>
 *   <li>{@link #toApproxDp}: ε-DP is (ε, 0)-DP (definition).
 *   <li>{@link #toRenyiDpBunSteinke}: Bun and Steinke (2016), Proposition 3.3: ε-DP implies
 *       (ε²/2)-zCDP; together with the trivial bound D_α ≤ ε this gives (α, min(ε, αε²/2))-RDP.
 *   <li>{@link #toRenyiDp}: the exact worst case. Every ε-DP pair of output distributions (P, Q)
 *       has trade-off function T(P, Q) ≥ f_{ε,0} = T(RR_ε(0), RR_ε(1)), the trade-off function of
 *       binary randomized response (Kairouz, Oh and Viswanath 2015, Theorem 2.1; Dong, Roth and Su
 *       2022, Proposition 2.2 / Blackwell's theorem), so (P, Q) is a post-processing of the binary
 *       randomized-response pair and, by the data-processing inequality for Rényi divergence
 *       (Mironov 2017, Proposition 2 / van Erven and Harremoës 2014), D_α(P‖Q) ≤ D_α of binary
 *       randomized response. The bound is attained by randomized response itself, so it is the
 *       tightest pure→RDP conversion; it is never larger than the Bun–Steinke bound.
 * </ul>
 */
public final class PureDpConversion {

  private PureDpConversion() {}

  /** ε-DP read as (ε, 0)-DP. */
  public static ApproxDp toApproxDp(PureDp pure) {
    Require.nonNull("pure", pure);
    return new ApproxDp(pure.epsilon(), 0);
  }

  /** Bun–Steinke (2016), Prop. 3.3: (α, min(ε, αε²/2))-RDP at each order. */
  public static RenyiDp toRenyiDpBunSteinke(PureDp pure, double[] orders) {
    Require.nonNull("pure", pure);
    double e = pure.epsilon();
    return RenyiDp.ofCurve(orders, a -> Math.min(e, a * e * e / 2));
  }

  /** The exact (tight) RDP curve implied by ε-DP: that of binary randomized response. */
  public static RenyiDp toRenyiDp(PureDp pure, double[] orders) {
    Require.nonNull("pure", pure);
    double e = pure.epsilon();
    return RenyiDp.ofCurve(orders, a -> renyiEpsilonOfRandomizedResponse(e, 2, a));
  }

  /**
   * The exact Rényi divergence of order α between the output laws of k-ary randomized response
   * with parameter ε on two different inputs (true value with probability e^ε/(e^ε + k − 1)):
   *
   * <pre>
   *   D_α = log[(e^{αε} + e^{(1−α)ε} + k − 2) / (e^ε + k − 1)] / (α − 1).
   * </pre>
   *
   * <p>The argument of the logarithm is written as 1 + x with x = (1 − e^{−t})(e^{ε+t} − 1)/(e^ε +
   * k − 1), t = (α − 1)ε (all factors positive, so nothing cancels) and evaluated as log1p(x), in
   * log space once x would overflow. Relative error a few ulps for every ε ≥ 0, α &gt; 1. For k = 2
   * this is the tight pure-DP→RDP conversion, and it also equals the RDP of the discrete Laplace
   * mechanism with scale 1/ε (sum the two geometric series).
   *
   * @param epsilon ε ≥ 0
   * @param categories k ≥ 2
   * @param alpha α &gt; 1
   */
  public static double renyiEpsilonOfRandomizedResponse(
      double epsilon, int categories, double alpha) {
    Require.nonNegative("epsilon", epsilon);
    Require.inClosedRange("categories", categories, 2, Integer.MAX_VALUE);
    Require.renyiOrder("alpha", alpha);
    if (epsilon == 0) {
      return 0;
    }
    double t = (alpha - 1) * epsilon;
    // log x = log(1 − e^{−t}) + log(e^{ε+t} − 1) − log(e^ε + k − 1)
    double logX =
        LogMath.log1mExp(-t)
            + (epsilon + t)
            + LogMath.log1mExp(-(epsilon + t))
            - LogMath.logAddExp(epsilon, Math.log(categories - 1.0));
    return LogMath.logAddExp(0, logX) / (alpha - 1);
  }
}
