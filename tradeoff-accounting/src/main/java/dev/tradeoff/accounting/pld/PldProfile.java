package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
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
 * <p><b>The question chooses the tail and the grid.</b> The distributions computed by the
 * accountant (the <i>base</i>: its tail mass, its grid) answer most questions. When an answer's
 * bracket is not tight, the profile recomputes the composition for that question and answers from
 * the recomputation, intersected with the base answer (both brackets are valid, so their
 * intersection is too; an empty intersection is a defect and throws):
 *
 * <ul>
 *   <li><b>Tail</b>: the P-mass truncated per side goes to the upper bound as δ (Pr[L = ∞]), so a
 *       δ below it cannot be certified. For ε(δ) the tail is brought to at most {@value
 *       #TAIL_SHARE} δ; for δ(ε), while the truncated mass is more than {@value #GAP_GOAL} of the
 *       upper bound, to at most {@value #TAIL_SHARE} times the lower bound on δ (or, while that is
 *       0, squared, 1e-15 → 1e-30 → …). Tails are taken from the ladder
 *       10^{−15−5j} down to {@value #MIN_TAIL}, so that nearby questions share a recomputation; the
 *       composed masses below about 1e-16 are then resolved by exponentially tilted transforms
 *       aimed at the δ or ε asked (see {@link Composer}).
 *   <li><b>Grid</b> (ε(δ) only): the bracket of a connect-the-dots pair narrows as Δ² — a Δ fixed
 *       at 1e-4 is coarse for an ε of 0.005 and fine for an ε of 5 — so an ε bracket wider than
 *       {@value #GAP_GOAL} relative is recomputed at Δ·√(goal/(4·gap)) (between Δ/32 and Δ/2), up
 *       to {@link PldAccountant#MAX_COMPOSED_POINTS} grid points, a few times at most. δ(ε) keeps
 *       the grid (a δ bracket says how steep δ(·) is there as much as how fine the grid is), and so
 *       does a composition whose lower bound composes other pairs than its upper bound (fixed-size
 *       batches: the bracket is then mostly the distance between the dominating pair and the
 *       pairs datasets attain, which no grid closes).
 * </ul>
 *
 * <p>A few recomputations are kept, so a sweep of questions reuses them. The result is that ε(δ)
 * is finite for every δ in (0, 1) wherever the truth is, with a bracket of at most {@value
 * #GAP_GOAL} relative unless the grid cannot be made finer within memory (the bracket then says
 * so), and δ(ε) has a positive lower bound down to about {@value #MIN_TAIL}. Answers at the default question (δ = 1e-5,
 * DP-SGD) come from the base and cost nothing extra.
 */
public final class PldProfile implements PrivacyProfile {

  /**
   * The relative bracket width above which a profile whose grid was coarsened only to keep within
   * the accountant's point budget recomputes its answer on the finest grid memory allows: a tenth
   * of {@link #GAP_GOAL}. A coarsened answer tighter than that is kept (the recomputation costs up
   * to 16 times the points: 100 Gaussians at δ = 1e-12 took 2 CPU-s for a bracket of 2e-5).
   */
  static final double FINER_GAP = 0.00025;

  /** The relative bracket width above which an answer is recomputed on a finer grid. */
  public static final double GAP_GOAL = 0.0025;

  /** The largest tail mass, relative to the δ asked or found, that is not recomputed smaller. */
  static final double TAIL_SHARE = 1e-4;

  /** The smallest tail mass per side (the total over all mechanisms and the composed window). */
  static final double MIN_TAIL = 1e-305;

  /** The finest grid a recomputation uses. */
  static final double MIN_INTERVAL = 1e-10;

  /** Recomputations per answer at most. */
  private static final int MAX_REFINEMENTS = 8;

  /** Recomputed levels kept for later questions. */
  private static final int CACHED_LEVELS = 2;

  /** Grid points from which the two sides of a query are evaluated concurrently. */
  private static final int CONCURRENT_SIZE = 1 << 15;

  /**
   * The composition at one tail mass and grid: the per-direction pessimistic and optimistic
   * distributions, each composed when first needed, and for two directions a screen per
   * direction (see {@link PldAccountant}).
   *
   * @param screens per direction a pessimistic distribution on a coarser grid, composed at once:
   *     a valid upper bound that says whether the direction can be the maximum; empty for one
   *     direction
   * @param interval the grid spacing of the pessimistic and optimistic distributions
   * @param tail the P-mass truncated per side (summed over mechanisms, and of the composed window)
   * @param requestedInterval the grid spacing asked for; the distributions' may be coarser
   * @param budget the most composed grid points allowed
   * @param coarsenedForBudget whether the budget (not memory) made the grid coarser than asked
   * @param otherLowerPairs whether the lower bound composes other pairs than the upper one (a
   *     dominating pair that no datasets attain: fixed-size batches), so that part of the bracket
   *     is the analysis's own and no finer grid closes it
   */
  record Level(
      List<Lazily<PrivacyLossDistribution>> pessimistic,
      List<Lazily<PrivacyLossDistribution>> optimistic,
      List<PrivacyLossDistribution> screens,
      double interval,
      double tail,
      double requestedInterval,
      int budget,
      boolean coarsenedForBudget,
      boolean otherLowerPairs) {
    Level {
      pessimistic = List.copyOf(pessimistic);
      optimistic = List.copyOf(optimistic);
      screens = List.copyOf(screens);
      if (pessimistic.size() != optimistic.size()
          || !screens.isEmpty() && screens.size() != pessimistic.size()) {
        throw new IllegalArgumentException(
            "one optimistic distribution (and screen, if any) per pessimistic one");
      }
    }

    /**
     * The largest P-mass the pessimistic distributions put at +∞ beyond the optimistic ones: the
     * truncated tails and the composed window's folded tail, which a smaller tail mass reduces.
     * Taken over the directions whose bounds have been composed (a question composes those of
     * the direction that attains the maximum; the others' δ is below it).
     */
    double truncatedMass() {
      double mass = 0;
      for (int i = 0; i < pessimistic.size(); i++) {
        if (pessimistic.get(i).computed() && optimistic.get(i).computed()) {
          mass = Math.max(mass, pessimistic(i).infinityMass() - optimistic(i).infinityMass());
        }
      }
      return mass;
    }

    /** The pessimistic distribution of direction i, composed now if no question needed it yet. */
    PrivacyLossDistribution pessimistic(int i) {
      return pessimistic.get(i).get();
    }

    /** The optimistic distribution of direction i, composed now if no question needed it yet. */
    PrivacyLossDistribution optimistic(int i) {
      return optimistic.get(i).get();
    }

    /** The most grid points of any of the composed distributions (those composed so far). */
    int largestSize() {
      int size = 0;
      for (List<Lazily<PrivacyLossDistribution>> side : List.of(pessimistic, optimistic)) {
        for (Lazily<PrivacyLossDistribution> d : side) {
          if (d.computed()) {
            size = Math.max(size, d.get().size());
          }
        }
      }
      return size;
    }

    /** Whether the compositions have (or, for screened ones, will have) many grid points. */
    boolean large() {
      for (PrivacyLossDistribution screen : screens) {
        if (screen.size() * (screen.interval() / interval) >= CONCURRENT_SIZE) {
          return true;
        }
      }
      return largestSize() >= CONCURRENT_SIZE;
    }
  }

  /** Computes the composition at a tail mass, grid spacing and point budget. */
  @FunctionalInterface
  interface Levels {
    Level compute(double tail, double interval, int budget);
  }

  private final Level base;
  private final Levels levels;
  private final List<Level> cached = new ArrayList<>();

  /**
   * @param base the composition at the accountant's tail mass and grid
   * @param levels recomputes the composition for a question; null if the profile cannot
   */
  PldProfile(Level base, Levels levels) {
    this.base = base;
    this.levels = levels;
  }

  /**
   * The per-direction pessimistic distributions (one or two) of the base composition (composed
   * now where no question has needed them yet).
   */
  public List<PrivacyLossDistribution> distributions() {
    return composed(base.pessimistic());
  }

  /**
   * The per-direction optimistic distributions (one or two) of the base composition (composed
   * now where no question has needed them yet).
   */
  public List<PrivacyLossDistribution> optimisticDistributions() {
    return composed(base.optimistic());
  }

  /** Each of the distributions, composed now where no question has needed it yet. */
  private static List<PrivacyLossDistribution> composed(
      List<Lazily<PrivacyLossDistribution>> distributions) {
    List<PrivacyLossDistribution> all = new ArrayList<>();
    for (Lazily<PrivacyLossDistribution> d : distributions) {
      all.add(d.get());
    }
    return List.copyOf(all);
  }

  /** The grid spacing Δ of the base composition (after any coarsening). */
  public double interval() {
    return base.interval();
  }

  /** The tail mass per side of the base composition. */
  public double tailMass() {
    return base.tail();
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
  @Override
  public DeltaBounds deltaBounds(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    Level level = base;
    double[] bounds = deltaAt(level, epsilon);
    double lower = bounds[0];
    double upper = bounds[1];
    for (int i = 0; i < MAX_REFINEMENTS && levels != null; i++) {
      double gap = upper > 0 ? (upper - lower) / upper : 0;
      double tail = level.tail();
      Level next;
      if (tail > MIN_TAIL && level.truncatedMass() > GAP_GOAL * upper) {
        // The truncated tails are a material part of the upper bound.
        next = level(ladder(lower > 0 ? TAIL_SHARE * lower : tail * tail),
            level.requestedInterval());
      } else if (level.coarsenedForBudget()
          && level.budget() < PldAccountant.MAX_COMPOSED_POINTS
          && gap > FINER_GAP) {
        next = level(tail, level.requestedInterval());
      } else {
        break;
      }
      level = next;
      bounds = deltaAt(level, epsilon);
      lower = Math.max(lower, bounds[0]);
      upper = Math.min(upper, bounds[1]);
      check(upper, lower, "delta(" + epsilon + ")");
    }
    return new DeltaBounds(lower, upper);
  }

  /** The true ε(δ) lies in the returned interval. */
  @Override
  public EpsilonBounds epsilonBounds(double delta) {
    Require.delta("delta", delta);
    Level level = base;
    double[] bounds = epsilonAt(level, delta);
    double lower = bounds[0];
    double upper = bounds[1];
    for (int i = 0; i < MAX_REFINEMENTS && levels != null; i++) {
      if (lower == Double.POSITIVE_INFINITY) {
        break; // even the optimistic bound cannot reach δ: the truth is +∞
      }
      double gap = upper == Double.POSITIVE_INFINITY
          ? Double.POSITIVE_INFINITY : upper > 0 ? (upper - lower) / upper : 0;
      if (!needsMore(level, gap) || upper - lower <= ABSOLUTE_GAP) {
        break;
      }
      double tail = level.tail();
      if (delta > 0 && tail > MIN_TAIL && tail > 10 * TAIL_SHARE * delta) {
        level = level(ladder(TAIL_SHARE * delta), level.requestedInterval());
      } else {
        double finer = finerInterval(level, gap);
        if (!(finer > 0)) {
          break;
        }
        level = level(tail, finer);
      }
      bounds = epsilonAt(level, delta);
      lower = Math.max(lower, bounds[0]);
      upper = Math.min(upper, bounds[1]);
      check(upper, lower, "epsilon(" + delta + ")");
    }
    return new EpsilonBounds(lower, upper);
  }

  /**
   * An ε bracket this narrow in absolute terms is not refined further, whatever its relative
   * width: near ε = 0 a relative goal would ask for grids no computation can afford (a Gaussian of
   * σ = 10^9 has ε of 10^-9), and no use of an ε needs it known to better than 10^-6.
   */
  static final double ABSOLUTE_GAP = 1e-6;

  /** Whether an answer of this relative gap from this level is worth a recomputation. */
  private static boolean needsMore(Level level, double gap) {
    return gap > GAP_GOAL
        || level.coarsenedForBudget()
            && level.budget() < PldAccountant.MAX_COMPOSED_POINTS
            && gap > FINER_GAP;
  }

  /**
   * The most composed grid points a recomputation on a finer grid may need: a quarter of the
   * largest window of a tilted transform (see {@link Composer}), so that at small δ the tilted
   * transform can hold the long upper tail of its tilted law. That tail is made of the few steps
   * whose loss is large: for DP-SGD σ = 0.5, q = 1e-4, 10^5 steps at δ = 1e-10 the tilted law
   * spans about 100 in loss while the composed window spans 26, and the answer was certified to
   * 0.02% at Δ = 2.5e-5 (2^20 points) but not at all at Δ = 1.25e-5 (2^21), where no tilted
   * window of 2^22 points holds enough of that tail.
   */
  static final int REFINED_POINTS = 1 << 20;

  /**
   * The grid for the next recomputation: the level's own when only its point budget coarsened it,
   * else finer by √(goal/(4·gap)) between 1/32 and 1/2 (the bracket narrows as Δ²) and by no more
   * than keeps the composed window within {@link #REFINED_POINTS}; 0 if the grid cannot be made
   * finer.
   */
  private static double finerInterval(Level level, double gap) {
    if (level.coarsenedForBudget() && level.budget() < PldAccountant.MAX_COMPOSED_POINTS) {
      return level.requestedInterval();
    }
    if (level.otherLowerPairs()) {
      return 0; // the gap is mostly between two analyses, not the grid's
    }
    if (level.interval() > 1.001 * level.requestedInterval()) {
      return 0; // memory already coarsened this grid
    }
    double factor = Double.isFinite(gap)
        ? Math.max(1.0 / 32, Math.min(0.5, Math.sqrt(GAP_GOAL / (4 * gap))))
        : 0.25;
    factor = Math.max(factor, (double) level.largestSize() / REFINED_POINTS);
    double finer = Math.max(MIN_INTERVAL, level.interval() * factor);
    return finer < level.interval() ? finer : 0;
  }

  /**
   * The largest tail on the ladder 10^{−15−5j} (down to {@value #MIN_TAIL}) that is at most the
   * given one. The rungs are close because a smaller tail is not free: a Poisson-sampled
   * mechanism's loss grows exponentially in its output, so each rung lower widens every
   * mechanism's loss range (and the composed window) and, worse, puts mass far out where it
   * dominates the moment generating function at the rates the tilted transforms need — squaring
   * the tail (1e-15 → 1e-30) took DP-SGD σ = 1.74, q = 1.57e-4 from a loss range of 0.05 to 0.17
   * per step, and the tilted transform at δ = 1e-15 from certifying 0.5% to failing.
   */
  static double ladder(double tail) {
    for (int j = 0; ; j++) {
      double t = Math.pow(10, -15 - 5 * j);
      if (t <= tail || t <= MIN_TAIL) {
        return Math.max(t, MIN_TAIL);
      }
    }
  }

  /**
   * The composition at the tail and grid, at the full point budget: a kept one at least as fine
   * (tail and grid no larger) if there is one, else computed and kept.
   */
  private Level level(double tail, double interval) {
    synchronized (cached) {
      for (Level level : cached) {
        if (level.tail() <= tail && level.requestedInterval() <= interval) {
          cached.remove(level);
          cached.add(level);
          return level;
        }
      }
    }
    Level level = levels.compute(tail, interval, PldAccountant.MAX_COMPOSED_POINTS);
    synchronized (cached) {
      cached.add(level);
      if (cached.size() > CACHED_LEVELS) {
        cached.remove(0);
      }
    }
    return level;
  }

  private void check(double upper, double lower, String what) {
    if (!(upper >= lower)) {
      throw new IllegalStateException(
          "PLD invariant violated: the upper bound on " + what + " = " + upper
              + " is below the lower bound " + lower + " (" + this + ")");
    }
  }

  /** {lower, upper} on δ(ε) from one level, checked. */
  private double[] deltaAt(Level level, double epsilon) {
    Concurrently.Both<Double> both =
        eachSide(level, d -> d.plainDelta(epsilon), d -> d.delta(epsilon));
    check(both.first(), both.second(), "delta(" + epsilon + ")");
    return new double[] {both.second(), both.first()};
  }

  /** {lower, upper} on ε(δ) from one level, checked. */
  private double[] epsilonAt(Level level, double delta) {
    Concurrently.Both<Double> both =
        eachSide(level, d -> d.plainEpsilon(delta), d -> d.epsilon(delta));
    check(both.first(), both.second(), "epsilon(" + delta + ")");
    return new double[] {both.second(), both.first()};
  }

  /**
   * The maximum over directions of the value, for the pessimistic distributions (first) and the
   * optimistic ones (second). The full value of a large composition may run an exponentially
   * tilted transform (see {@link Composer}); it is skipped for a direction that cannot change the
   * maximum: one whose cheap bound, a valid upper bound on that direction's truth, is at most the
   * maximum so far. The cheap bound is the direction's screen's full value where the level has
   * screens (a coarser grid, see {@link PldAccountant}), else the pessimistic distribution's
   * {@code plain} value (without the refinement). The upper bound is then still a maximum of valid
   * upper bounds, and a skipped direction's lower bound could not exceed its truth, which is
   * below the lower bound already found. Directions are taken in decreasing order of their cheap
   * bound, so the dominant one is refined first. A direction's value is the smaller of its cheap
   * bound and its full value, both valid upper bounds on its truth: on a finer grid the full value
   * can fall back to its plain bound where neither the tilted transforms nor the direct convolution
   * resolve it, while the screen on its coarser grid was resolved (issue 20: DP-SGD σ = 1.556,
   * q = 1e-5, 443 steps at δ = 1e-12, whose second direction at Δ = 3.125e-6 stayed at 0.0171
   * against its screen's 0.0013137). The lower bound is that of the first of them
   * (the largest cheap bound) alone: any direction's lower bound is a lower bound on the maximum,
   * so this is valid whichever direction dominates, and it is tight, the maximum lying below that
   * direction's upper bound; the other direction is then not composed at all. Should the refined
   * upper bounds find another direction dominant, its lower bound is taken too. Large profiles
   * evaluate the two sides concurrently.
   */
  private static Concurrently.Both<Double> eachSide(
      Level level,
      ToDoubleFunction<PrivacyLossDistribution> plain,
      ToDoubleFunction<PrivacyLossDistribution> value) {
    int n = level.pessimistic().size();
    double[] cheap = new double[n];
    for (int i = 0; i < n; i++) {
      cheap[i] = level.screens().isEmpty()
          ? plain.applyAsDouble(level.pessimistic(i))
          : value.applyAsDouble(level.screens().get(i));
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(cheap[b], cheap[a]));
    int refined = order[0];
    Supplier<Maximum> upper = () -> maximum(level, order, cheap, value);
    Supplier<Double> lower = () -> value.applyAsDouble(level.optimistic(refined));
    Concurrently.Both<Maximum> sides = level.large()
        ? Concurrently.both(upper, () -> new Maximum(lower.get(), refined))
        : new Concurrently.Both<>(upper.get(), new Maximum(lower.get(), refined));
    double lowerBound = sides.second().value();
    int dominant = sides.first().direction();
    if (dominant != refined) {
      // The cheap bounds pointed elsewhere than the refined upper bounds do: refine that one too.
      lowerBound = Math.max(lowerBound, value.applyAsDouble(level.optimistic(dominant)));
    }
    return new Concurrently.Both<>(sides.first().value(), lowerBound);
  }

  /** The maximum of the values (see {@link #eachSide}), and the direction that attains it. */
  private record Maximum(double value, int direction) {}

  private static Maximum maximum(Level level, Integer[] order, double[] cheap,
      ToDoubleFunction<PrivacyLossDistribution> value) {
    double max = 0;
    int direction = order[0];
    for (int i : order) {
      if (cheap[i] > max) {
        // Both are valid upper bounds on this direction's truth, and either can be the tighter:
        // the full value is uncertified (its plain bound) where no refinement resolves it.
        double v = Math.min(cheap[i], value.applyAsDouble(level.pessimistic(i)));
        if (v > max) {
          max = v;
          direction = i;
        }
      }
    }
    return new Maximum(max, direction);
  }

  /**
   * The lower bounds as a profile of their own: its δ(ε) and ε(δ) are at most the true values
   * (each answer still checked against the upper bound).
   */
  public PrivacyProfile lower() {
    return new PrivacyProfile() {
      @Override
      public double delta(double epsilon) {
        return PldProfile.this.deltaBounds(epsilon).lower();
      }

      @Override
      public double epsilon(double delta) {
        return PldProfile.this.epsilonBounds(delta).lower();
      }
    };
  }

  @Override
  public String toString() {
    return "PldProfile[interval=" + base.interval() + ", tail=" + base.tail() + "]";
  }
}
