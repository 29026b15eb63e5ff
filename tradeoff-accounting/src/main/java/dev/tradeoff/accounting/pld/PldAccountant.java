package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
 * or of composite events; sampling without replacement (no dominating pair is known for it, so
 * there is no PLD to discretize); guarantees without a dominating pair (Rényi, zCDP, trade-off
 * functions, profiles, ex-post).
 */
public final class PldAccountant implements Accountant {

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

  @Override
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    if (event instanceof ComposedEvent composed) {
      for (DpEvent e : composed.events()) {
        Optional<String> why = whyUnsupported(e, neighbouring);
        if (why.isPresent()) {
          return why;
        }
      }
      return Optional.empty();
    }
    if (event instanceof SelfComposedEvent self) {
      return whyUnsupported(self.event(), neighbouring);
    }
    if (event instanceof PoissonSampledEvent sampled) {
      if (neighbouring != Neighbouring.ADD_OR_REMOVE_ONE) {
        return Optional.of(
            "Poisson subsampling is analysed under add/remove-one neighbouring only, not "
                + neighbouring);
      }
      DpEvent inner = sampled.event();
      if (inner instanceof GaussianEvent
          || inner instanceof LaplaceEvent
          || inner instanceof RandomizedResponseEvent
          || inner instanceof DiscreteLaplaceEvent
          || inner instanceof GuaranteeEvent g
              && (g.guarantee() instanceof PureDp || g.guarantee() instanceof ApproxDp)) {
        return Optional.empty();
      }
      return Optional.of(
          "the PLD accountant analyses Poisson sampling of a Gaussian, Laplace, randomized"
              + " response, discrete Laplace or pure/approx DP mechanism only (each has a known"
              + " worst-case pair), but the inner event was " + inner + "; use rdp");
    }
    if (event instanceof SampledWithoutReplacementEvent) {
      return Optional.of(
          "the PLD accountant has no worst-case pair for sampling without replacement; use rdp"
              + " (or basic, kairouz, optimal for (epsilon, delta) inner events) under replace-one");
    }
    if (event instanceof DiscreteGaussianEvent dg && dg.sigma() > MAX_DISCRETE_GAUSSIAN_SIGMA) {
      return Optional.of(
          "discrete Gaussian sigma must be <= " + MAX_DISCRETE_GAUSSIAN_SIGMA
              + " for its support to be enumerated, but was " + dg.sigma());
    }
    if (event instanceof GuaranteeEvent g
        && !(g.guarantee() instanceof PureDp
            || g.guarantee() instanceof ApproxDp
            || g.guarantee() instanceof GaussianDp)) {
      return Optional.of(
          "a " + g.guarantee().getClass().getSimpleName()
              + " guarantee has no dominating pair the PLD accountant can use"
              + " (supported: PureDp, ApproxDp, GaussianDp)");
    }
    return Optional.empty();
  }

  /**
   * The profile of the event: δ(ε) and ε(δ) are upper bounds, and {@link
   * PldProfile#epsilonBounds} / {@link PldProfile#deltaBounds} bracket the truth.
   */
  @Override
  public PldProfile account(DpEvent event, Neighbouring neighbouring) {
    requireSupported(event, neighbouring);
    Map<DpEvent, Long> counts = new LinkedHashMap<>();
    flatten(event, 1, counts);
    double totalCount = 0;
    for (long c : counts.values()) {
      totalCount += c;
    }
    double total = totalCount;
    PldProfile.Levels levels = (tail, grid, budget) -> level(counts, total, tail, grid, budget);
    return new PldProfile(levels.compute(tailMass, interval, maxPoints), levels);
  }

  /**
   * The upper and the lower bound, composed concurrently, at the given tail mass per side (summed
   * over the mechanisms and the composed window), finest grid spacing and point budget. The tail
   * mass left out of each mechanism is the tail over the number of mechanisms (at least the
   * smallest normal number), so that the truncated mass summed over the composition stays at most
   * the tail. {@link PldProfile} asks for other tails and grids when a question needs them.
   */
  private static PldProfile.Level level(
      Map<DpEvent, Long> counts, double totalCount, double tail, double grid, int budget) {
    double termTail = Math.max(Double.MIN_NORMAL, tail / totalCount);
    List<Leaf> leaves = new ArrayList<>();
    for (Map.Entry<DpEvent, Long> entry : counts.entrySet()) {
      DpEvent leaf = entry.getKey();
      LossModel remove = model(leaf, Direction.REMOVE, termTail);
      LossModel add = isSymmetric(leaf) ? null : model(leaf, Direction.ADD, termTail);
      leaves.add(new Leaf(remove, add, entry.getValue()));
    }
    Concurrently.Both<Composed> both = Concurrently.both(
        () -> compose(leaves, termTail, tail, grid, Discretization.PESSIMISTIC, budget),
        () -> compose(leaves, termTail, tail, grid, Discretization.OPTIMISTIC, budget));
    boolean coarsened = both.first().coarsenedForBudget() || both.second().coarsenedForBudget();
    return new PldProfile.Level(both.first().distributions(), both.second().distributions(),
        tail, grid, budget, coarsened);
  }

  /** Composed distributions per direction, and whether the point budget coarsened their grid. */
  private record Composed(List<PrivacyLossDistribution> distributions, boolean coarsenedForBudget) {}

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
   * The composed distributions (remove, then add if any leaf is asymmetric) at the finest interval
   * that fits: Δ starts at the configured interval and is coarsened until (1) every mechanism's
   * grid has at most {@value #MAX_TERM_POINTS} points, (2) every summed grid index is within
   * {@link Discretizer#MAX_INDEX}, and (3) the composed window has at most {@code budget} points.
   * Coarsening only widens the gap between the bounds; it never refuses and never makes a bound
   * unsafe.
   */
  private static Composed compose(List<Leaf> leaves, double termTail, double tail,
      double interval, Discretization mode, int budget) {
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
      double window = probe * windowPoints(composer, leaves, probe, termTail);
      grid = Math.max(grid, 1.05 * window / budget);
    }
    for (int attempt = 0; ; attempt++) {
      Discretizer discretizer = new Discretizer(grid, termTail, mode);
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
        return new Composed(
            symmetric
                ? List.of(composer.compose(remove))
                : List.of(composer.compose(remove), composer.compose(add)),
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
  private static long windowPoints(
      Composer composer, List<Leaf> leaves, double interval, double termTail) {
    Discretizer discretizer = new Discretizer(interval, termTail, Discretization.PESSIMISTIC);
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

  /**
   * Whether the leaf's loss distribution is the same in both directions: true for every
   * unsampled leaf here (their dominating pairs are symmetric), false for proper Poisson sampling.
   */
  private static boolean isSymmetric(DpEvent leaf) {
    return !(leaf instanceof PoissonSampledEvent sampled)
        || sampled.samplingProbability() == 0
        || sampled.samplingProbability() == 1;
  }

  /** Flattens composition into (leaf, total count); counts multiply through nesting. */
  private static void flatten(DpEvent event, long multiplier, Map<DpEvent, Long> counts) {
    if (event instanceof ComposedEvent composed) {
      for (DpEvent e : composed.events()) {
        flatten(e, multiplier, counts);
      }
    } else if (event instanceof SelfComposedEvent self) {
      long product;
      try {
        product = Math.multiplyExact(multiplier, self.count());
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "count must be at most " + Long.MAX_VALUE + " in total, but overflowed", e);
      }
      flatten(self.event(), product, counts);
    } else {
      counts.merge(event, multiplier, Math::addExact);
    }
  }

  /** The dominating pair of a leaf in one direction (symmetric leaves ignore the direction). */
  private static LossModel model(DpEvent leaf, Direction direction, double termTail) {
    if (leaf instanceof GaussianEvent g) {
      return new SampledGaussianLoss(g.sigma(), 1, Direction.REMOVE);
    }
    if (leaf instanceof LaplaceEvent l) {
      return new SampledLaplaceLoss(l.scale(), 1, Direction.REMOVE);
    }
    if (leaf instanceof DiscreteGaussianEvent dg) {
      return Outcomes.discreteGaussian(dg.sigma(), termTail);
    }
    if (leaf instanceof PoissonSampledEvent sampled) {
      double q = sampled.samplingProbability();
      if (q == 0) {
        return Outcomes.identity();
      }
      if (q == 1) {
        return model(sampled.event(), direction, termTail);
      }
      DpEvent inner = sampled.event();
      if (inner instanceof GaussianEvent g) {
        return new SampledGaussianLoss(g.sigma(), q, direction);
      }
      if (inner instanceof LaplaceEvent l) {
        return new SampledLaplaceLoss(l.scale(), q, direction);
      }
      return ((Outcomes) model(inner, direction, termTail)).sampled(q, direction);
    }
    if (leaf instanceof GuaranteeEvent g && g.guarantee() instanceof GaussianDp gdp) {
      // μ-GDP is dominated by (N(0, 1), N(μ, 1)), i.e. a Gaussian mechanism with σ = 1/μ.
      return gdp.mu() == 0
          ? Outcomes.identity()
          : new SampledGaussianLoss(1 / gdp.mu(), 1, Direction.REMOVE);
    }
    return outcomes(leaf);
  }

  private static Outcomes outcomes(DpEvent leaf) {
    if (leaf instanceof RandomizedResponseEvent rr) {
      return Outcomes.randomizedResponse(rr.epsilon(), rr.categories());
    }
    if (leaf instanceof DiscreteLaplaceEvent dl) {
      return Outcomes.discreteLaplace(dl.scale());
    }
    GuaranteeEvent g = (GuaranteeEvent) leaf;
    if (g.guarantee() instanceof PureDp pure) {
      return Outcomes.approxDp(pure.epsilon(), 0);
    }
    ApproxDp approx = (ApproxDp) g.guarantee();
    return Outcomes.approxDp(approx.epsilon(), approx.delta());
  }
}
