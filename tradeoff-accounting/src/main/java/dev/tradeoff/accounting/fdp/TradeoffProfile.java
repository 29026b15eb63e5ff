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
 * <p>Precision: each term is formed as (1 − β_i) − e^ε α_i, so δ carries an absolute error of a few
 * ulps of 1 (about 2e-16); δ values below that are not resolved.
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
    double best = 0;
    for (int i = 0; i < curve.vertexCount(); i++) {
      double a = curve.vertexAlpha(i);
      double term = (1 - curve.vertexBeta(i)) - (a == 0 ? 0 : slope * a);
      best = Math.max(best, term);
    }
    return Math.min(best, 1);
  }
}
