package dev.tradeoff.accounting.conversion;

import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.Optional;

/**
 * The privacy profile of a Rényi-DP curve under the improved conversion of Canonne, Kamath and
 * Steinke (2020, Prop. 12) / Balle et al. (2020, Thm. 21): δ(ε) is the minimum over grid orders of
 * the per-order δ, and {@link #epsilon(double)} is answered directly as the minimum over orders of
 * the per-order ε (no bisection), so the two are exact inverses of each other on the grid.
 *
 * @param rdp the RDP curve (ε(α) on a grid of orders)
 */
public record RdpProfile(RenyiDp rdp) implements PrivacyProfile {

  public RdpProfile {
    Require.nonNull("rdp", rdp);
  }

  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double best = 1;
    for (int i = 0; i < rdp.size(); i++) {
      best = Math.min(best, RdpConversion.improvedDelta(rdp.order(i), rdp.epsilon(i), epsilon));
    }
    return best;
  }

  /**
   * The smallest ε over the grid orders (improved conversion); {@code +∞} if no order is finite or
   * δ = 0 (the conversion never certifies δ = 0; a curve that is 0 in floating point may be an
   * underflowed positive divergence, so it is not read as exact equality of the distributions).
   */
  @Override
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    if (delta == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return bestOrder(delta).map(RdpConversion.EpsilonAtOrder::epsilon)
        .orElse(Double.POSITIVE_INFINITY);
  }

  /** The best order and its ε at δ in (0, 1); empty when the curve is infinite at every order. */
  public Optional<RdpConversion.EpsilonAtOrder> bestOrder(double delta) {
    Require.openUnit("delta", delta);
    for (int i = 0; i < rdp.size(); i++) {
      if (rdp.epsilon(i) != Double.POSITIVE_INFINITY) {
        return Optional.of(RdpConversion.bestImproved(rdp, delta));
      }
    }
    return Optional.empty();
  }
}
