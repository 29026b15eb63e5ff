package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

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
 *
 * <p>When the accountant coarsened the grid only to stay within its point budget, an answer whose
 * bracket is wider than {@value #FINER_GAP} relative is recomputed once on the finest grid memory
 * allows (see {@link PldAccountant}); the coarse distributions remain those reported by {@link
 * #distributions()}.
 */
public final class PldProfile implements PrivacyProfile {

  /**
   * The relative bracket width above which a profile whose grid was coarsened only to keep within
   * the accountant's point budget recomputes its answer on the finest grid memory allows.
   */
  static final double FINER_GAP = 1e-6;

  /** Grid points from which the two sides of a query are evaluated concurrently. */
  private static final int CONCURRENT_SIZE = 1 << 15;

  private final List<PrivacyLossDistribution> pessimistic;
  private final List<PrivacyLossDistribution> optimistic;
  private final boolean large;
  private final Supplier<PldProfile> finer;
  private PldProfile finerValue;

  /**
   * @param finer the same profile on a finer grid, computed on demand when an answer's bracket is
   *     wider than {@link #FINER_GAP} relative; null if there is none
   */
  PldProfile(
      List<PrivacyLossDistribution> pessimistic,
      List<PrivacyLossDistribution> optimistic,
      Supplier<PldProfile> finer) {
    this.pessimistic = List.copyOf(pessimistic);
    this.optimistic = List.copyOf(optimistic);
    if (this.pessimistic.size() != this.optimistic.size()) {
      throw new IllegalArgumentException("one optimistic distribution per pessimistic one");
    }
    boolean anyLarge = false;
    for (PrivacyLossDistribution d : pessimistic) {
      anyLarge |= d.size() >= CONCURRENT_SIZE;
    }
    this.large = anyLarge;
    this.finer = finer;
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
    Concurrently.Both<Double> both =
        eachSide(d -> d.plainDelta(epsilon), d -> d.delta(epsilon));
    double upper = both.first();
    double lower = both.second();
    if (!(upper >= lower)) {
      throw new IllegalStateException(
          "PLD invariant violated: the upper bound on delta(" + epsilon + ") = " + upper
              + " is below the lower bound " + lower + " (" + this + ")");
    }
    if (finer != null && upper - lower > FINER_GAP * upper) {
      return finer().deltaBounds(epsilon);
    }
    return new DeltaBounds(lower, upper);
  }

  /** The true ε(δ) lies in the returned interval. */
  public EpsilonBounds epsilonBounds(double delta) {
    Require.delta("delta", delta);
    Concurrently.Both<Double> both =
        eachSide(d -> d.plainEpsilon(delta), d -> d.epsilon(delta));
    double upper = both.first();
    double lower = both.second();
    if (!(upper >= lower)) {
      throw new IllegalStateException(
          "PLD invariant violated: the upper bound on epsilon(" + delta + ") = " + upper
              + " is below the lower bound " + lower + " (" + this + ")");
    }
    if (finer != null && upper - lower > FINER_GAP * upper) {
      return finer().epsilonBounds(delta);
    }
    return new EpsilonBounds(lower, upper);
  }

  private PldProfile finer() {
    synchronized (this) {
      if (finerValue == null) {
        finerValue = finer.get();
      }
      return finerValue;
    }
  }

  /**
   * The maximum over directions of the value, for the pessimistic distributions (first) and the
   * optimistic ones (second). The full value of a large composition may run an exponentially
   * tilted transform (see {@link Composer}); it is skipped for a direction that cannot change the
   * maximum: one whose cheap pessimistic bound ({@code plain}, without the refinement, still an
   * upper bound on that direction's truth) is at most the maximum so far. The upper bound is then
   * still a maximum of valid upper bounds, and a skipped direction's lower bound could not exceed
   * its truth, which is below the lower bound already found. Directions are taken in decreasing
   * order of their cheap bound, so the dominant one is refined first; large profiles evaluate the
   * two sides concurrently.
   */
  private Concurrently.Both<Double> eachSide(
      ToDoubleFunction<PrivacyLossDistribution> plain,
      ToDoubleFunction<PrivacyLossDistribution> value) {
    int n = pessimistic.size();
    double[] cheap = new double[n];
    for (int i = 0; i < n; i++) {
      cheap[i] = plain.applyAsDouble(pessimistic.get(i));
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(cheap[b], cheap[a]));
    Supplier<Double> upper = () -> maximum(pessimistic, order, cheap, value);
    Supplier<Double> lower = () -> maximum(optimistic, order, cheap, value);
    return large
        ? Concurrently.both(upper, lower)
        : new Concurrently.Both<>(upper.get(), lower.get());
  }

  private static double maximum(
      List<PrivacyLossDistribution> distributions,
      Integer[] order,
      double[] cheap,
      ToDoubleFunction<PrivacyLossDistribution> value) {
    double max = 0;
    for (int i : order) {
      if (cheap[i] > max) {
        max = Math.max(max, value.applyAsDouble(distributions.get(i)));
      }
    }
    return max;
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
