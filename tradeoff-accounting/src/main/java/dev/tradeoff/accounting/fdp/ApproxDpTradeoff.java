package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.TradeoffFunction;
import dev.tradeoff.accounting.internal.Require;

/**
 * The trade-off function of (ε, δ)-DP, f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
 * (Dong, Roth and Su 2022, Section 2.3, after Wasserman and Zhou 2010: a mechanism is (ε, δ)-DP
 * iff it is
 * f_{ε,δ}-DP). It is symmetric and piecewise linear with the vertices (0, 1 − δ),
 * ((1 − δ)/(1 + e^ε), (1 − δ)/(1 + e^ε)), (1 − δ, 0) and (1, 0).
 *
 * @param epsilon ε ≥ 0 and finite
 * @param delta δ in [0, 1)
 */
public record ApproxDpTradeoff(double epsilon, double delta) implements TradeoffFunction {

  public ApproxDpTradeoff {
    Require.nonNegative("epsilon", epsilon);
    Require.delta("delta", delta);
  }

  /** (ε, δ)-DP → f_{ε,δ} (Dong, Roth and Su 2022, Section 2.3). */
  public static ApproxDpTradeoff of(ApproxDp guarantee) {
    Require.nonNull("guarantee", guarantee);
    return new ApproxDpTradeoff(guarantee.epsilon(), guarantee.delta());
  }

  /** The (ε, δ) guarantee this curve expresses. */
  public ApproxDp toApproxDp() {
    return new ApproxDp(epsilon, delta);
  }

  @Override
  public double beta(double alpha) {
    Require.probability("alpha", alpha);
    if (alpha == 0) {
      return 1 - delta; // avoids e^ε · 0 = NaN when e^ε overflows
    }
    double rest = 1 - delta - alpha;
    double first = (1 - delta) - Math.exp(epsilon) * alpha;
    return Math.max(0, Math.max(first, Math.exp(-epsilon) * rest));
  }

  /**
   * The same curve as a {@link PiecewiseLinearTradeoff}, exactly (up to the rounding of the kink
   * coordinate (1 − δ)/(1 + e^ε); for ε &gt; 709, where e^ε overflows, the curve 0 on [0, 1]).
   */
  public PiecewiseLinearTradeoff toPiecewiseLinear() {
    double kink = (1 - delta) / (1 + Math.exp(epsilon));
    // The lower convex envelope merges coincident vertices: (1 − δ, 0) with (1, 0) when 1 − δ
    // rounds to 1, and, when e^ε overflows (ε > 709, kink = 0), (0, 1 − δ) with (0, 0), which
    // drops the single point f(0) = 1 − δ of a curve that is 0 on (0, 1] (a lower curve: safe).
    return PiecewiseLinearTradeoff.lowerConvexEnvelope(
        new double[] {0, kink, 1 - delta, 1}, new double[] {1 - delta, kink, 0, 0});
  }

  /**
   * The privacy profile of f_{ε,δ} by the convex conjugate (Dong, Roth and Su 2022, Proposition
   * 2.12): δ(ε′) = 1 + f*(−e^{ε′}) = δ + (1 − δ)(e^ε − e^{ε′})/(1 + e^ε) for ε′ ≤ ε and 0 beyond,
   * evaluated exactly at the vertices; see {@link TradeoffProfile}.
   */
  public PrivacyProfile profile() {
    return new TradeoffProfile(toPiecewiseLinear());
  }
}
