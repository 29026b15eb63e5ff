package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.CompositionWalk;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.DoubleFunction;

/**
 * Numerical privacy-loss-distribution accountant (Sommer, Meiser and Mohammadi 2019; Koskela,
 * Jälkö and Honkela 2020) with the connect-the-dots discretization of Doroshenko, Ghazi, Kamath,
 * Kumar and Manurangsi ("Connect the Dots: Tighter Discrete Approximations of Privacy Loss
 * Distributions", PETS 2022) for the upper bound and its garbling counterpart for the lower bound
 * (see {@link Discretization}); every {@link PldProfile} carries both and checks that the upper
 * bound is at least the lower one on every answer.
 *
 * <p>Each mechanism's dominating pair is discretized on the grid {iΔ}, with tails of P-mass
 * {@code tailMass}/(number of mechanisms) truncated in the safe direction; the event tree is
 * flattened into (mechanism, count) terms and all terms are composed by one FFT convolution
 * ({@link Composer}), whose round-off is bounded per loss (an exponentially tilted transform keeps
 * it relative in the tail). The interval Δ is the configured one (default {@value
 * #DEFAULT_INTERVAL}) unless the composed losses would need more than the point budget (default
 * {@value #DEFAULT_MAX_POINTS} grid points, at most {@value #MAX_COMPOSED_POINTS}): then it is
 * coarsened automatically ({@link PldProfile#interval()} reports it) and the coarsening shows as
 * a wider bracket — a composition is never refused for its size. The default budget is what the
 * 0.5% bracket of DP-SGD needs (those windows are narrow, so Δ stays at 1e-4) while wide windows,
 * such as 100 Gaussians whose loss spans about 200, are taken at a few times 1e-4, where the
 * bracket is still far below 0.01%. The upper and the lower bound are composed concurrently
 * ({@link Concurrently}).
 *
 * <p>Supported: Laplace, Gaussian, discrete Laplace, discrete Gaussian (σ ≤ {@value
 * #MAX_DISCRETE_GAUSSIAN_SIGMA}), k-ary randomized response, guarantees {@link PureDp},
 * {@link ApproxDp} (its worst-case pair) and {@link GaussianDp} (as a Gaussian with σ = 1/μ), and
 * Poisson subsampling of Gaussian, Laplace, randomized response, discrete Laplace, pure- and
 * approximate-DP leaves under {@link Neighbouring#ADD_OR_REMOVE_ONE}. For add/remove-one the
 * neighbouring pair is fixed for the whole run, so the composition is computed separately in the
 * remove direction (P has the record) and the add direction, and δ(ε) is the larger of the two
 * (Zhu, Dong and Wang 2022). Refused: Poisson sampling under replace-one, of the discrete Gaussian
 * or of composite events; sampling without replacement of anything but a
 * Gaussian (a Gaussian on a batch without replacement, under replace-one, is accounted with the
 * symmetrized pair of {@link WithoutReplacementGaussianLoss}); guarantees without a dominating pair (Rényi, zCDP, trade-off
 * functions, profiles, ex-post). Shuffled epochs under replace-one are the epochs-fold
 * composition of their step.
 */
public final class PldAccountant
    extends EventAccountant<Map<DpEvent, PldAccountant.Counted>, PldProfile> {

  /** Default grid spacing Δ of the losses: the finest used; coarsened when memory needs it. */
  public static final double DEFAULT_INTERVAL = 1e-4;

  /** Default P-mass truncated on each side of each distribution and of the composed window. */
  public static final double DEFAULT_TAIL_MASS = 1e-15;

  /** The largest σ of a discrete Gaussian whose support is enumerated. */
  public static final double MAX_DISCRETE_GAUSSIAN_SIGMA = 1e5;

  /**
   * The largest FFT length (number of composed grid points): with the transforms' work arrays, a
   * composition keeps about ten arrays of this many doubles live (≈ 0.7 GB), and the upper and the
   * lower bound are composed at the same time. Reached only with an explicit interval or when a
   * coarse answer is recomputed (see {@link PldProfile}).
   */
  public static final int MAX_COMPOSED_POINTS = 1 << 23;

  /**
   * The default budget of composed grid points (FFT length): with an explicit interval the CLI
   * raises it to {@link #MAX_COMPOSED_POINTS}.
   */
  public static final int DEFAULT_MAX_POINTS = 1 << 19;

  /** The largest number of grid points of one mechanism's distribution. */
  static final int MAX_TERM_POINTS = 1 << 21;

  /** Grid points per mechanism of the coarse first look that sizes the composed window. */
  private static final double PROBE_POINTS = 4096;

  private final double interval;
  private final double tailMass;
  private final int maxPoints;

  /** An accountant with the default interval, tail mass and point budget. */
  public PldAccountant() {
    this(DEFAULT_INTERVAL, DEFAULT_TAIL_MASS);
  }

  /**
   * An accountant with the default point budget {@value #DEFAULT_MAX_POINTS}.
   *
   * @param interval the finest loss grid spacing Δ, in [1e-7, 1]
   * @param tailMass the tail P-mass truncated per side, in [1e-300, 1e-3]
   */
  public PldAccountant(double interval, double tailMass) {
    this(interval, tailMass, DEFAULT_MAX_POINTS);
  }

  /**
   * @param interval the finest loss grid spacing Δ, in [1e-7, 1]
   * @param tailMass the tail P-mass truncated per side, in [1e-300, 1e-3]
   * @param maxPoints the most composed grid points (FFT length) before Δ is coarsened: a power of
   *     two in [2^10, {@value #MAX_COMPOSED_POINTS}]
   */
  public PldAccountant(double interval, double tailMass, int maxPoints) {
    this.interval = Require.inClosedRange("interval", interval, 1e-7, 1);
    this.tailMass = Require.inClosedRange("tailMass", tailMass, 1e-300, 1e-3);
    if (maxPoints < 1 << 10 || maxPoints > MAX_COMPOSED_POINTS || Integer.bitCount(maxPoints) != 1) {
      throw new IllegalArgumentException(
          "maxPoints must be a power of two in [1024, " + MAX_COMPOSED_POINTS + "], but was "
              + maxPoints);
    }
    this.maxPoints = maxPoints;
  }

  public double interval() {
    return interval;
  }

  public double tailMass() {
    return tailMass;
  }

  /** The budget of composed grid points before the interval is coarsened. */
  public int maxPoints() {
    return maxPoints;
  }

  @Override
  public AccountingMethod method() {
    return AccountingMethod.PLD;
  }

  /**
   * A mechanism of the tree: the pair composed in the remove and in the add direction, for the
   * upper bound (pessimistic) and for the lower bound (optimistic), built at a per-mechanism tail
   * mass. Usually one dominating pair serves both bounds; where the dominating pair is not attained
   * by any pair of datasets (fixed-size batches), the lower bound composes pairs that are.
   */
  interface Pair {
    LossModel model(Direction direction, double termTail, Discretization bound);

    /** Whether both directions have the same loss distribution for both bounds. */
    boolean symmetric();

    /** Whether the lower bound composes the same pair as the upper bound. */
    default boolean sameForBothBounds() {
      return true;
    }
  }

  /** A pair that is the same in both directions. */
  private static Pair symmetric(DoubleFunction<LossModel> model) {
    return new Pair() {
      @Override
      public LossModel model(Direction direction, double termTail, Discretization bound) {
        return model.apply(termTail);
      }

      @Override
      public boolean symmetric() {
        return true;
      }
    };
  }

  /** A Poisson-sampled pair: one distribution per direction. */
  private static Pair sampled(BiFunction<Direction, Double, LossModel> model) {
    return new Pair() {
      @Override
      public LossModel model(Direction direction, double termTail, Discretization bound) {
        return model.apply(direction, termTail);
      }

      @Override
      public boolean symmetric() {
        return false;
      }
    };
  }

  /**
   * The pair with the lower bound given up: the upper bound composes the given pair, the lower one
   * the identity (no loss). Shuffled epochs are charged as unsampled steps, an upper bound that no
   * datasets need attain (shuffling hides which step holds the record).
   */
  private static Pair upperOnly(Pair pair) {
    return new Pair() {
      @Override
      public LossModel model(Direction direction, double termTail, Discretization bound) {
        return bound == Discretization.PESSIMISTIC
            ? pair.model(direction, termTail, bound)
            : Outcomes.identity();
      }

      @Override
      public boolean symmetric() {
        return pair.symmetric();
      }

      @Override
      public boolean sameForBothBounds() {
        return false;
      }
    };
  }

  /**
   * A Gaussian on a fixed-size batch drawn without replacement (γ &lt; 1): the upper bound composes
   * the symmetrized pair of {@link WithoutReplacementGaussianLoss}, which dominates every ordered
   * pair of neighbouring outputs at every order but need not be attained under composition; the
   * lower bound composes the pairs (R, Q) and (Q, R) of that class's comment, each attained (in
   * every step at once) by datasets whose changed record contributes 1 on one side and 0 on the
   * other while every other record contributes 0.
   */
  private static Pair withoutReplacement(double sigma, double gamma) {
    return new Pair() {
      @Override
      public LossModel model(Direction direction, double termTail, Discretization bound) {
        return bound == Discretization.PESSIMISTIC
            ? new WithoutReplacementGaussianLoss(sigma, gamma)
            : new SampledGaussianLoss(sigma, gamma, direction);
      }

      @Override
      public boolean symmetric() {
        return false;
      }

      @Override
      public boolean sameForBothBounds() {
        return false;
      }
    };
  }

  /** A leaf mechanism and how many times it runs in the whole tree. */
  record Counted(Pair pair, long count) {}

  @Override
  protected Analysis<Map<DpEvent, Counted>> analyse(DpEvent event, Neighbouring neighbouring) {
    return new Mechanisms(neighbouring).of(event);
  }

  /**
   * The profile of the event: δ(ε) and ε(δ) are upper bounds, and {@link
   * PldProfile#epsilonBounds} / {@link PldProfile#deltaBounds} bracket the truth.
   */
  @Override
  protected PldProfile profile(Map<DpEvent, Counted> counts) {
    double totalCount = 0;
    for (Counted c : counts.values()) {
      totalCount += c.count();
    }
    double total = totalCount;
    List<Counted> mechanisms = List.copyOf(counts.values());
    PldProfile.Levels levels =
        (tail, grid, budget) -> level(mechanisms, total, tail, grid, budget);
    return new PldProfile(levels.compute(tailMass, interval, maxPoints), levels);
  }

  /**
   * The walk: the tree flattened into its distinct leaf mechanisms with their total counts (counts
   * multiply through nesting), each with its dominating pair.
   */
  private static final class Mechanisms extends CompositionWalk<Map<DpEvent, Counted>> {

    Mechanisms(Neighbouring neighbouring) {
      super(neighbouring);
    }

    @Override
    protected Analysis<Map<DpEvent, Counted>> repeated(Map<DpEvent, Counted> inner, int count) {
      Map<DpEvent, Counted> repeated = new LinkedHashMap<>();
      for (Map.Entry<DpEvent, Counted> e : inner.entrySet()) {
        try {
          repeated.put(e.getKey(), new Counted(e.getValue().pair(),
              Math.multiplyExact(e.getValue().count(), count)));
        } catch (ArithmeticException overflow) {
          return tooMany();
        }
      }
      return Analysis.of(repeated);
    }

    @Override
    protected Analysis<Map<DpEvent, Counted>> together(List<Map<DpEvent, Counted>> parts) {
      Map<DpEvent, Counted> all = new LinkedHashMap<>();
      for (Map<DpEvent, Counted> part : parts) {
        for (Map.Entry<DpEvent, Counted> e : part.entrySet()) {
          Counted before = all.get(e.getKey());
          try {
            all.put(e.getKey(), before == null ? e.getValue() : new Counted(before.pair(),
                Math.addExact(before.count(), e.getValue().count())));
          } catch (ArithmeticException overflow) {
            return tooMany();
          }
        }
      }
      return Analysis.of(all);
    }

    private static Analysis<Map<DpEvent, Counted>> tooMany() {
      return Analysis.refused("the total count of a mechanism must be at most " + Long.MAX_VALUE
          + ", but overflowed");
    }

    private static Analysis<Map<DpEvent, Counted>> leaf(DpEvent event, Pair pair) {
      Map<DpEvent, Counted> one = new LinkedHashMap<>();
      one.put(event, new Counted(pair, 1));
      return Analysis.of(one);
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> gaussian(GaussianEvent g) {
      return leaf(g, symmetric(t -> new SampledGaussianLoss(g.sigma(), 1, Direction.REMOVE)));
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> laplace(LaplaceEvent l) {
      return leaf(l, symmetric(t -> new SampledLaplaceLoss(l.scale(), 1, Direction.REMOVE)));
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> discreteGaussian(DiscreteGaussianEvent dg) {
      if (dg.sigma() > MAX_DISCRETE_GAUSSIAN_SIGMA) {
        return Analysis.refused("discrete Gaussian sigma must be <= " + MAX_DISCRETE_GAUSSIAN_SIGMA
            + " for its support to be enumerated, but was " + dg.sigma());
      }
      return leaf(dg, symmetric(t -> Outcomes.discreteGaussian(dg.sigma(), t)));
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> discreteLaplace(DiscreteLaplaceEvent dl) {
      return leaf(dl, symmetric(t -> Outcomes.discreteLaplace(dl.scale())));
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> randomizedResponse(RandomizedResponseEvent rr) {
      return leaf(rr, symmetric(t -> Outcomes.randomizedResponse(rr.epsilon(), rr.categories())));
    }

    @Override
    public Analysis<Map<DpEvent, Counted>> guarantee(GuaranteeEvent g) {
      if (g.guarantee() instanceof PureDp pure) {
        return leaf(g, symmetric(t -> Outcomes.approxDp(pure.epsilon(), 0)));
      }
      if (g.guarantee() instanceof ApproxDp approx) {
        return leaf(g, symmetric(t -> Outcomes.approxDp(approx.epsilon(), approx.delta())));
      }
      if (g.guarantee() instanceof GaussianDp gdp) {
        // μ-GDP is dominated by (N(0, 1), N(μ, 1)), i.e. a Gaussian mechanism with σ = 1/μ.
        return leaf(g, symmetric(t -> gdp.mu() == 0
            ? Outcomes.identity()
            : new SampledGaussianLoss(1 / gdp.mu(), 1, Direction.REMOVE)));
      }
      return Analysis.refused("a " + g.guarantee().getClass().getSimpleName()
          + " guarantee has no dominating pair the PLD accountant can use"
          + " (supported: PureDp, ApproxDp, GaussianDp)");
    }

    /**
     * Poisson sampling of a Gaussian, Laplace, randomized-response, discrete-Laplace or
     * pure/approximate-DP leaf: the pair of Zhu, Dong and Wang (2022) in each direction.
     */
    @Override
    public Analysis<Map<DpEvent, Counted>> poissonSampled(PoissonSampledEvent sampled) {
      if (neighbouring() != Neighbouring.ADD_OR_REMOVE_ONE) {
        return Analysis.refused(
            "Poisson subsampling is analysed under add/remove-one neighbouring only, not "
                + neighbouring());
      }
      double q = sampled.samplingProbability();
      DpEvent inner = sampled.event();
      if (q == 0) {
        return leaf(sampled, symmetric(t -> Outcomes.identity()));
      }
      if (inner instanceof GaussianEvent g) {
        return leaf(sampled, q == 1
            ? symmetric(t -> new SampledGaussianLoss(g.sigma(), 1, Direction.REMOVE))
            : sampled((d, t) -> new SampledGaussianLoss(g.sigma(), q, d)));
      }
      if (inner instanceof LaplaceEvent l) {
        return leaf(sampled, q == 1
            ? symmetric(t -> new SampledLaplaceLoss(l.scale(), 1, Direction.REMOVE))
            : sampled((d, t) -> new SampledLaplaceLoss(l.scale(), q, d)));
      }
      if (inner instanceof RandomizedResponseEvent
          || inner instanceof DiscreteLaplaceEvent
          || inner instanceof GuaranteeEvent g
              && (g.guarantee() instanceof PureDp || g.guarantee() instanceof ApproxDp)) {
        Pair pair = ((Analysis.Supported<Map<DpEvent, Counted>>) of(inner)).value()
            .get(inner).pair();
        return leaf(sampled, q == 1
            ? pair
            : sampled((d, t) -> ((Outcomes) pair.model(d, t, Discretization.PESSIMISTIC))
                .sampled(q, d)));
      }
      return Analysis.refused(
          "the PLD accountant analyses Poisson sampling of a Gaussian, Laplace, randomized"
              + " response, discrete Laplace or pure/approx DP mechanism only (each has a known"
              + " worst-case pair), but the inner event was " + inner + "; use rdp");
    }

    /** One unsampled step per epoch for the upper bound; no lower bound (see {@link #upperOnly}). */
    @Override
    public Analysis<Map<DpEvent, Counted>> shuffledEpochs(ShuffledEpochsEvent event) {
      return super.shuffledEpochs(event).map(inner -> {
        Map<DpEvent, Counted> upper = new LinkedHashMap<>();
        // keyed by the shuffled event so that the same step run unshuffled stays apart
        inner.forEach((leaf, c) -> upper.put(
            new ShuffledEpochsEvent(leaf, 1, event.stepsPerEpoch()),
            new Counted(upperOnly(c.pair()), c.count())));
        return upper;
      });
    }

    /**
     * A Gaussian run on a batch drawn without replacement, under replace-one: the symmetrized pair
     * of {@link WithoutReplacementGaussianLoss}, valid at every hockey-stick order and so under
     * composition.
     */
    @Override
    public Analysis<Map<DpEvent, Counted>> sampledWithoutReplacement(
        SampledWithoutReplacementEvent sampled) {
      if (neighbouring() != Neighbouring.REPLACE_ONE) {
        return Analysis.refused("sampling without replacement is analysed under replace-one"
            + " neighbouring only, but the relation was " + neighbouring());
      }
      if (!(sampled.event() instanceof GaussianEvent g)) {
        return Analysis.refused("the PLD accountant analyses sampling without replacement of a"
            + " Gaussian only (its symmetrized dominating pair), but the inner event was "
            + sampled.event() + "; use rdp (or basic, kairouz, optimal for (epsilon, delta) inner"
            + " events)");
      }
      double gamma = WithoutReplacementAmplification.samplingRatio(
          sampled.datasetSize(), sampled.sampleSize());
      return leaf(sampled, gamma >= 1
          ? symmetric(t -> new SampledGaussianLoss(g.sigma(), 1, Direction.REMOVE))
          : withoutReplacement(g.sigma(), gamma));
    }
  }

  /**
   * The upper and the lower bound at the given tail mass per side (summed over the mechanisms and
   * the composed window), finest grid spacing and point budget. The tail mass left out of each
   * mechanism is the tail over the number of mechanisms (at least the smallest normal number), so
   * that the truncated mass summed over the composition stays at most the tail. {@link PldProfile}
   * asks for other tails and grids when a question needs them.
   *
   * <p>With one direction the upper and the lower bound are composed concurrently. With two
   * (Poisson sampling), each direction's upper and lower bound are composed only when a question
   * asks for them, and what is composed at once is a <i>screen</i> per direction: its upper bound
   * on a grid {@value #SCREEN_COARSENING} times coarser (an eighth of the points). The maximum over
   * directions of valid upper bounds is a valid upper bound, and a direction whose screen is at
   * most the maximum found so far cannot raise it; any direction's lower bound is a lower bound
   * on the maximum. So {@link PldProfile} takes the direction whose screen is largest, composes
   * its upper and lower bound, and composes the other direction only if its screen says it might
   * be larger. For DP-SGD that is two compositions and two screens instead of four compositions.
   */
  private static PldProfile.Level level(
      List<Counted> mechanisms, double totalCount, double tail, double grid, int budget) {
    double termTail = Math.max(Double.MIN_NORMAL, tail / totalCount);
    List<Leaf> upper = leaves(mechanisms, termTail, Discretization.PESSIMISTIC);
    List<Leaf> lower = leaves(mechanisms, termTail, Discretization.OPTIMISTIC);
    Discretizer.SharedShares shares = new Discretizer.SharedShares();
    boolean otherLowerPairs = false;
    for (Counted mechanism : mechanisms) {
      otherLowerPairs |= !mechanism.pair().sameForBothBounds();
    }
    boolean oneDirection = upper.stream().allMatch(leaf -> leaf.add() == null);
    if (oneDirection) {
      Concurrently.Both<Prepared> both = Concurrently.both(
          () -> prepare(upper, termTail, tail, grid, Discretization.PESSIMISTIC, budget, shares)
              .composeFirst(),
          () -> prepare(lower, termTail, tail, grid, Discretization.OPTIMISTIC, budget, shares)
              .composeFirst());
      return new PldProfile.Level(List.of(Lazily.done(both.first().direction(0))),
          List.of(Lazily.done(both.second().direction(0))), List.of(),
          both.first().interval(), tail, grid, budget,
          both.first().coarsenedForBudget() || both.second().coarsenedForBudget(),
          otherLowerPairs);
    }
    Prepared pessimistic =
        prepare(upper, termTail, tail, grid, Discretization.PESSIMISTIC, budget, shares);
    Prepared screening = prepare(upper, termTail, tail,
        SCREEN_COARSENING * pessimistic.interval(), Discretization.PESSIMISTIC, budget, shares);
    Concurrently.Both<PrivacyLossDistribution> screens =
        Concurrently.both(() -> screening.direction(0), () -> screening.direction(1));
    Lazily<Prepared> optimistic = Lazily.of(
        () -> prepare(lower, termTail, tail, grid, Discretization.OPTIMISTIC, budget, shares));
    return new PldProfile.Level(pessimistic.composed(),
        List.of(Lazily.of(() -> optimistic.get().direction(0)),
            Lazily.of(() -> optimistic.get().direction(1))),
        List.of(screens.first(), screens.second()), pessimistic.interval(),
        tail, grid, budget, pessimistic.coarsenedForBudget(), otherLowerPairs);
  }

  /**
   * How much coarser than the upper bounds' grid the screens of a two-direction composition are
   * (see {@link #level}). A screen is a valid upper bound on its direction's truth; it only has to
   * show that a direction cannot be the maximum. For DP-SGD the directions lie apart by more than
   * a grid this coarse moves them (σ = 1.1, q = 0.004, 10^5 steps, δ = 1e-12: remove 10.91772 at
   * Δ = 1e-4 and 10.94745 at 8e-4, add 10.47870 and 10.51037), so the add direction's screen
   * settles it, at an eighth of the points.
   */
  static final int SCREEN_COARSENING = 8;

  /** The mechanisms' pairs for one bound (add null where both directions are the same). */
  private static List<Leaf> leaves(
      List<Counted> mechanisms, double termTail, Discretization bound) {
    List<Leaf> leaves = new ArrayList<>();
    for (Counted mechanism : mechanisms) {
      Pair pair = mechanism.pair();
      LossModel remove = pair.model(Direction.REMOVE, termTail, bound);
      LossModel add = pair.symmetric() ? null : pair.model(Direction.ADD, termTail, bound);
      leaves.add(new Leaf(remove, add, mechanism.count()));
    }
    return leaves;
  }

  /**
   * One bound's terms per direction (remove, then add; the same list twice where the directions
   * coincide) on the grid chosen for them ({@code interval}), composed on demand, and whether the
   * point budget coarsened that grid.
   */
  private record Prepared(Composer composer, List<List<Composer.Term>> terms,
      List<Lazily<PrivacyLossDistribution>> composed, double interval,
      boolean coarsenedForBudget) {
    Prepared(Composer composer, List<List<Composer.Term>> terms, double interval,
        boolean coarsenedForBudget) {
      this(composer, terms, List.of(Lazily.of(() -> composer.compose(terms.get(0))),
          Lazily.of(() -> composer.compose(terms.get(1)))), interval, coarsenedForBudget);
    }

    /** The composed distribution of direction 0 (remove) or 1 (add). */
    PrivacyLossDistribution direction(int direction) {
      return composed.get(direction).get();
    }

    /** This, with the first direction composed. */
    Prepared composeFirst() {
      direction(0);
      return this;
    }
  }

  /** ε(δ) from the optimistic and the pessimistic PLD: the true ε lies between. */
  public EpsilonBounds epsilonBounds(DpEvent event, Neighbouring neighbouring, double delta) {
    Require.delta("delta", delta);
    return account(event, neighbouring).epsilonBounds(delta);
  }

  /** δ(ε) from the optimistic and the pessimistic PLD: the true δ lies between. */
  public DeltaBounds deltaBounds(DpEvent event, Neighbouring neighbouring, double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return account(event, neighbouring).deltaBounds(epsilon);
  }

  /** A mechanism's dominating pair in the remove direction, in the add direction (null if the same) and its count. */
  private record Leaf(LossModel remove, LossModel add, long count) {}

  /**
   * The terms to compose (remove, then add) at the finest interval that fits: Δ starts at the
   * configured interval and is coarsened until (1) every mechanism's grid has at most {@value
   * #MAX_TERM_POINTS} points, (2) every summed grid index is within {@link Discretizer#MAX_INDEX},
   * and (3) the composed window has at most {@code budget} points. Coarsening only widens the gap
   * between the bounds; it never refuses and never makes a bound unsafe. The quadrature of each
   * mechanism is shared with the other bound's composition ({@code shares}), which takes the
   * mechanisms in the opposite order so that the two compute different ones at the same time.
   */
  private static Prepared prepare(List<Leaf> leaves, double termTail, double tail,
      double interval, Discretization mode, int budget, Discretizer.SharedShares shares) {
    double grid = interval;
    double maxSpan = 0;
    double totalMagnitude = 0; // Σ_j c_j max |finite loss of j|
    for (Leaf leaf : leaves) {
      double magnitude = 0;
      for (LossModel model : leaf.add() == null
          ? List.of(leaf.remove()) : List.of(leaf.remove(), leaf.add())) {
        double[] range = Discretizer.lossRange(model, termTail);
        if (range != null) {
          maxSpan = Math.max(maxSpan, range[1] - range[0]);
          grid = Math.max(grid, (range[1] - range[0]) / (MAX_TERM_POINTS - 8));
          magnitude = Math.max(magnitude, Math.max(Math.abs(range[0]), Math.abs(range[1])));
        }
      }
      totalMagnitude += leaf.count() * magnitude;
    }
    grid = Math.max(grid, totalMagnitude / (Discretizer.MAX_INDEX / 4));
    double memoryFloor = grid;
    Composer composer = new Composer(tail, budget);
    // A cheap first look at a coarse grid (about PROBE_POINTS per mechanism) measures the composed
    // window in units of loss, so the fine grid is usually right the first time.
    double probe = Math.max(grid, maxSpan / PROBE_POINTS);
    if (probe > grid) {
      double window = probe * windowPoints(composer, leaves, probe, termTail, shares);
      grid = Math.max(grid, 1.05 * window / budget);
    }
    List<LossModel> models = new ArrayList<>();
    for (Leaf leaf : leaves) {
      models.add(leaf.remove());
      if (leaf.add() != null) {
        models.add(leaf.add());
      }
    }
    if (mode == Discretization.OPTIMISTIC) {
      Collections.reverse(models);
    }
    for (int attempt = 0; ; attempt++) {
      Discretizer discretizer = new Discretizer(grid, termTail, mode, shares);
      for (LossModel model : models) {
        discretizer.prepare(model);
      }
      List<Composer.Term> remove = new ArrayList<>();
      List<Composer.Term> add = new ArrayList<>();
      boolean symmetric = true;
      for (Leaf leaf : leaves) {
        PrivacyLossDistribution r = discretizer.discretize(leaf.remove());
        remove.add(new Composer.Term(r, leaf.count()));
        if (leaf.add() == null) {
          add.add(new Composer.Term(r, leaf.count()));
        } else {
          symmetric = false;
          add.add(new Composer.Term(discretizer.discretize(leaf.add()), leaf.count()));
        }
      }
      long needed = composer.requiredPoints(remove);
      if (!symmetric) {
        needed = Math.max(needed, composer.requiredPoints(add));
      }
      if (needed <= budget) {
        return new Prepared(composer, List.of(remove, symmetric ? remove : add), grid,
            grid > memoryFloor);
      }
      if (attempt == 60) {
        throw new IllegalStateException(
            "no interval up to " + grid + " fits the composition in " + budget
                + " grid points");
      }
      // The window scales as 1/Δ; a little more than the ratio avoids a third pass.
      grid *= 1.05 * needed / budget;
    }
  }

  /** The composed window (grid points, both directions) of the pessimistic PLDs at interval Δ. */
  private static long windowPoints(Composer composer, List<Leaf> leaves, double interval,
      double termTail, Discretizer.SharedShares shares) {
    Discretizer discretizer =
        new Discretizer(interval, termTail, Discretization.PESSIMISTIC, shares);
    List<Composer.Term> remove = new ArrayList<>();
    List<Composer.Term> add = new ArrayList<>();
    for (Leaf leaf : leaves) {
      PrivacyLossDistribution r = discretizer.discretize(leaf.remove());
      remove.add(new Composer.Term(r, leaf.count()));
      add.add(new Composer.Term(
          leaf.add() == null ? r : discretizer.discretize(leaf.add()), leaf.count()));
    }
    return Math.max(composer.requiredPoints(remove), composer.requiredPoints(add));
  }
}
