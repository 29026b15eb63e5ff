package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.List;

/**
 * The privacy profile of an accounted event: the maximum over the neighbouring directions
 * (remove and add under add/remove-one; one direction where the loss distributions coincide) of
 * each direction's discretized PLD. With pessimistic distributions δ(ε) and ε(δ) are upper bounds
 * (ε rounded up); with optimistic ones they are lower bounds.
 *
 * <p>ε(δ) is computed from each distribution directly in one pass (see
 * {@link PrivacyLossDistribution#epsilon(double)}), not by bisection on δ(·); the maximum over
 * directions is exact because δ is their maximum.
 */
public final class PldProfile implements PrivacyProfile {

  private final List<PrivacyLossDistribution> directions;

  PldProfile(List<PrivacyLossDistribution> directions) {
    this.directions = List.copyOf(directions);
  }

  /** The per-direction distributions (one or two). */
  public List<PrivacyLossDistribution> distributions() {
    return directions;
  }

  /** Whether this profile bounds δ from above or from below. */
  public Discretization discretization() {
    return directions.get(0).discretization();
  }

  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double max = 0;
    for (PrivacyLossDistribution d : directions) {
      max = Math.max(max, d.delta(epsilon));
    }
    return max;
  }

  @Override
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    double max = 0;
    for (PrivacyLossDistribution d : directions) {
      max = Math.max(max, d.epsilon(delta));
    }
    return max;
  }

  @Override
  public String toString() {
    return "PldProfile" + directions;
  }
}
