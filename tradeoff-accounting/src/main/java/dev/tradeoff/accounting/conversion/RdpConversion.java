package dev.tradeoff.accounting.conversion;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * Conversions from Rényi DP to (ε, δ)-DP, and zCDP to Rényi DP.
 *
 * <ul>
 *   <li>Classic (Mironov 2017, Proposition 3): (α, τ)-RDP implies (τ + log(1/δ)/(α − 1), δ)-DP.
 *   <li>Improved (Canonne, Kamath and Steinke 2020, Proposition 12; Balle, Barthe, Gaboardi, Hsu
 *       and Sato 2020, Theorem 21): (α, τ)-RDP implies (ε, δ)-DP with
 *       <pre>  ε = τ + log((α − 1)/α) − (log δ + log α)/(α − 1),</pre>
 *       equivalently δ(ε) = exp((α − 1)(τ − ε)) · (1 − 1/α)^α / (α − 1). Since log((α−1)/α) &lt; 0
 *       and −log α/(α−1) &lt; 0 it is never worse than the classic conversion.
 * </ul>
 *
 * <p>Over a grid, the best order is chosen (each order gives a valid bound, so the minimum is
 * valid). An ε below 0 is reported as 0: (ε′, δ)-DP with ε′ &lt; 0 implies (0, δ)-DP. Results are
 * evaluated in double precision without cancellation-prone differences (relative error a few ulps).
 */
public final class RdpConversion {

  private RdpConversion() {}

  /** An (ε, δ) bound together with the Rényi order that produced it. */
  public record EpsilonAtOrder(double epsilon, double delta, double order) {
    public EpsilonAtOrder {
      Require.nonNegative("epsilon", epsilon);
      Require.delta("delta", delta);
      Require.renyiOrder("order", order);
    }

    /** The (ε, δ) guarantee. */
    public ApproxDp toApproxDp() {
      return new ApproxDp(epsilon, delta);
    }
  }

  /** zCDP → RDP (Bun and Steinke 2016, Definition 1.1): ρ-zCDP is (α, ρα)-RDP at every order. */
  public static RenyiDp zcdpToRenyiDp(ZeroConcentratedDp zcdp, double[] orders) {
    Require.nonNull("zcdp", zcdp);
    double rho = zcdp.rho();
    return RenyiDp.ofCurve(orders, a -> rho * a);
  }

  /** Classic conversion at one order: τ + log(1/δ)/(α − 1), floored at 0; δ in (0, 1). */
  public static double classicEpsilon(double alpha, double tau, double delta) {
    checkOrderTauDelta(alpha, tau, delta);
    return Math.max(0, tau + -Math.log(delta) / (alpha - 1));
  }

  /**
   * Improved conversion at one order: τ + log((α − 1)/α) − (log δ + log α)/(α − 1), floored at 0;
   * δ in (0, 1).
   */
  public static double improvedEpsilon(double alpha, double tau, double delta) {
    checkOrderTauDelta(alpha, tau, delta);
    double e =
        tau + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
    return Math.max(0, e);
  }

  /**
   * Inverse of the improved conversion at one order: the δ for which (α, τ)-RDP implies (ε,
   * δ)-DP, exp((α − 1)(τ − ε) + α log(1 − 1/α) − log(α − 1)), capped at 1.
   */
  public static double improvedDelta(double alpha, double tau, double epsilon) {
    Require.renyiOrder("alpha", alpha);
    if (!(tau >= 0)) {
      throw new IllegalArgumentException("tau must be >= 0 (or +Infinity), but was " + tau);
    }
    Require.nonNegative("epsilon", epsilon);
    if (tau == Double.POSITIVE_INFINITY) {
      return 1;
    }
    double logDelta =
        (alpha - 1) * (tau - epsilon) + alpha * Math.log1p(-1 / alpha) - Math.log(alpha - 1);
    return logDelta >= 0 ? 1 : Math.exp(logDelta);
  }

  /** The best classic-conversion ε over the grid, with the order used. */
  public static EpsilonAtOrder bestClassic(RenyiDp rdp, double delta) {
    return best(rdp, delta, false);
  }

  /** The best improved-conversion ε over the grid, with the order used. */
  public static EpsilonAtOrder bestImproved(RenyiDp rdp, double delta) {
    return best(rdp, delta, true);
  }

  /** The privacy profile of an RDP curve under the improved conversion (best order per query). */
  public static RdpProfile toProfile(RenyiDp rdp) {
    return new RdpProfile(rdp);
  }

  private static EpsilonAtOrder best(RenyiDp rdp, double delta, boolean improved) {
    Require.nonNull("rdp", rdp);
    Require.openUnit("delta", delta);
    double bestEps = Double.POSITIVE_INFINITY;
    double bestOrder = Double.NaN;
    for (int i = 0; i < rdp.size(); i++) {
      double tau = rdp.epsilon(i);
      if (tau == Double.POSITIVE_INFINITY) {
        continue;
      }
      double a = rdp.order(i);
      double e = improved ? improvedEpsilon(a, tau, delta) : classicEpsilon(a, tau, delta);
      if (e < bestEps) {
        bestEps = e;
        bestOrder = a;
      }
    }
    if (Double.isNaN(bestOrder)) {
      throw new IllegalArgumentException(
          "rdp must be finite at some order to convert to (epsilon, delta), but was " + rdp);
    }
    return new EpsilonAtOrder(bestEps, delta, bestOrder);
  }

  private static void checkOrderTauDelta(double alpha, double tau, double delta) {
    Require.renyiOrder("alpha", alpha);
    Require.nonNegative("tau", tau);
    Require.openUnit("delta", delta);
  }
}
