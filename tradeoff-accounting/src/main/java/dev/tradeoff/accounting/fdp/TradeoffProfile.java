package dev.tradeoff.accounting.fdp;

import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;

/**
 * The privacy profile of an f-DP guarantee with piecewise-linear f, by the convex conjugate (Dong,
 * Roth and Su 2022, Proposition 2.12): a mechanism that is f-DP (Definition 2.3: T(M(S), M(S′)) ≥ f
 * for every ordered pair of neighbours) is (ε, δ(ε))-DP for all ε ≥ 0 with
 *
 * <pre>δ(ε) = 1 + f*(−e^ε) = sup_α (1 − f(α) − e^ε α) = max(0, max_i (1 − β_i − e^ε α_i)),</pre>
 *
 * the supremum of the concave piecewise-linear function being attained at a vertex; this is exact,
 * and for symmetric f it is an equivalence. If f bounds only one ordered pair of neighbours,
 * symmetrize it first ({@link PiecewiseLinearTradeoff#symmetrized()}).
 *
 * <p>Precision: each term is formed as (1 − β_i) − e^ε α_i and rounded up past its error: the
 * rounding errors of the subtraction 1 − β_i, the product and the difference are recovered exactly
 * (error-free transformations: Fast2Sum, fused multiply-add, TwoSum) and added back, and e^ε, within
 * 1 ulp, is allowed 2 ulps times α_i (none at ε = 0, where it is exact). So δ is never below the
 * exact conjugate of the given curve, exceeds it by a few ulps of δ plus 2 ulps of e^ε α_i, and is 0
 * where the exact value is 0 and every quantity is exact (ε = 0 at the vertex (1, 0)).
 *
 * @param curve the trade-off function
 */
public record TradeoffProfile(PiecewiseLinearTradeoff curve) implements PrivacyProfile {

  public TradeoffProfile {
    Require.nonNull("curve", curve);
  }

  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double slope = Math.exp(epsilon);
    double slopeError = epsilon == 0 ? 0 : 2 * Math.ulp(slope);
    double best = 0;
    for (int i = 0; i < curve.vertexCount(); i++) {
      double a = curve.vertexAlpha(i);
      double beta = curve.vertexBeta(i);
      double power = 1 - beta;
      double powerError = -beta - (power - 1); // Fast2Sum (1 ≥ β): 1 − β = power + powerError
      double level = a == 0 ? 0 : slope * a;
      if (level == Double.POSITIVE_INFINITY) {
        continue; // e^ε α beyond the double range: the term is below −1
      }
      // slope·a = level + the fma's residual; e^ε itself within 2 ulps
      double levelError = a == 0 ? 0 : Math.fma(slope, a, -level) - slopeError * a;
      double term = power - level;
      double back = term - power; // TwoSum: power − level = term + termError
      double termError = (power - (term - back)) + (-level - back);
      double errors = termError + powerError - levelError;
      double raised = errors == 0 ? term : Math.nextUp(term + Math.nextUp(errors));
      best = Math.max(best, raised);
    }
    return Math.min(best, 1);
  }
}
