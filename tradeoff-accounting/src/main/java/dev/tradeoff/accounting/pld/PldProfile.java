package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.List;

/**
 * The privacy profile of an accounted event, held as two discretized PLDs per neighbouring
 * direction: a {@link Discretization#PESSIMISTIC} one whose δ(ε) and ε(δ) are upper bounds on the
 * truth and an {@link Discretization#OPTIMISTIC} one whose values are lower bounds. Under
 * add/remove-one each bound is the maximum over the remove and add directions (one direction where
 * the loss distributions coincide).
 *
 * <p>Every answer is checked: the upper bound must be at least the lower one. Both bound the same
 * true value, so a violation can only be a defect in the accountant; it throws {@link
 * IllegalStateException} rather than report a value that may lie below the truth.
 *
 * <p>ε(δ) is computed from each distribution directly in one pass (see {@link
 * PrivacyLossDistribution#epsilon(double)}), not by bisection on δ(·); the maximum over directions
 * is exact because δ is their maximum.
 */
public final class PldProfile implements PrivacyProfile {

  private final List<PrivacyLossDistribution> pessimistic;
  private final List<PrivacyLossDistribution> optimistic;

  PldProfile(List<PrivacyLossDistribution> pessimistic, List<PrivacyLossDistribution> optimistic) {
    this.pessimistic = List.copyOf(pessimistic);
    this.optimistic = List.copyOf(optimistic);
  }

  /** The per-direction pessimistic distributions (one or two). */
  public List<PrivacyLossDistribution> distributions() {
    return pessimistic;
  }

  /** The per-direction optimistic distributions (one or two). */
  public List<PrivacyLossDistribution> optimisticDistributions() {
    return optimistic;
  }

  /** The grid spacing Δ the pessimistic distributions were computed at (after any coarsening). */
  public double interval() {
    return pessimistic.get(0).interval();
  }

  /** An upper bound on δ(ε) (checked against the lower bound). */
  @Override
  public double delta(double epsilon) {
    return deltaBounds(epsilon).upper();
  }

  /** An upper bound on ε(δ), rounded up (checked against the lower bound). */
  @Override
  public double epsilon(double delta) {
    return epsilonBounds(delta).upper();
  }

  /** The true δ(ε) lies in the returned interval. */
  public DeltaBounds deltaBounds(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double upper = 0;
    for (PrivacyLossDistribution d : pessimistic) {
      upper = Math.max(upper, d.delta(epsilon));
    }
    double lower = 0;
    for (PrivacyLossDistribution d : optimistic) {
      lower = Math.max(lower, d.delta(epsilon));
    }
    if (!(upper >= lower)) {
      throw new IllegalStateException(
          "PLD invariant violated: the upper bound on delta(" + epsilon + ") = " + upper
              + " is below the lower bound " + lower + " (" + this + ")");
    }
    return new DeltaBounds(lower, upper);
  }

  /** The true ε(δ) lies in the returned interval. */
  public EpsilonBounds epsilonBounds(double delta) {
    Require.delta("delta", delta);
    double upper = 0;
    for (PrivacyLossDistribution d : pessimistic) {
      upper = Math.max(upper, d.epsilon(delta));
    }
    double lower = 0;
    for (PrivacyLossDistribution d : optimistic) {
      lower = Math.max(lower, d.epsilon(delta));
    }
    if (!(upper >= lower)) {
      throw new IllegalStateException(
          "PLD invariant violated: the upper bound on epsilon(" + delta + ") = " + upper
              + " is below the lower bound " + lower + " (" + this + ")");
    }
    return new EpsilonBounds(lower, upper);
  }

  /**
   * The lower bounds as a profile of their own: its δ(ε) and ε(δ) are at most the true values
   * (each answer still checked against the upper bound).
   */
  public PrivacyProfile lower() {
    return new PrivacyProfile() {
      @Override
      public double delta(double epsilon) {
        return deltaBounds(epsilon).lower();
      }

      @Override
      public double epsilon(double delta) {
        return epsilonBounds(delta).lower();
      }
    };
  }

  @Override
  public String toString() {
    return "PldProfile[upper=" + pessimistic + ", lower=" + optimistic + "]";
  }
}
