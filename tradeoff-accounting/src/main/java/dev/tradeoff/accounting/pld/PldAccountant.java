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
 * Jälkö and Honkela 2020; discretization of Doroshenko et al. 2022, see {@link Discretization}).
 *
 * <p>Each mechanism's dominating pair is discretized on the grid {iΔ} ({@code interval} Δ,
 * default {@value #DEFAULT_INTERVAL}), with tails of P-mass {@code tailMass} (default
 * {@value #DEFAULT_TAIL_MASS}) truncated in the safe direction; the event tree is flattened into
 * (mechanism, count) terms and all terms are composed by one FFT convolution ({@link Composer}).
 *
 * <p>Supported: Laplace, Gaussian, discrete Laplace, discrete Gaussian (σ ≤ {@value
 * #MAX_DISCRETE_GAUSSIAN_SIGMA}), k-ary randomized response, guarantees {@link PureDp},
 * {@link ApproxDp} (its worst-case pair) and {@link GaussianDp} (as a Gaussian with σ = 1/μ), and
 * Poisson subsampling of Gaussian, Laplace, randomized response, discrete Laplace, pure- and
 * approximate-DP leaves under {@link Neighbouring#ADD_OR_REMOVE_ONE}. For add/remove-one the
 * neighbouring pair is fixed for the whole run, so the composition is computed separately in the
 * remove direction (P has the record) and the add direction, and δ(ε) is the larger of the two
 * (Zhu, Dong and Wang 2022). Refused: Poisson sampling under replace-one, of the discrete Gaussian
 * or of composite events; sampling without replacement; guarantees without a dominating pair
 * (Rényi, zCDP, trade-off functions, profiles, ex-post).
 */
public final class PldAccountant implements Accountant {

  /** Default grid spacing Δ of the losses. */
  public static final double DEFAULT_INTERVAL = 1e-4;

  /** Default P-mass truncated on each side of each distribution and of the composed window. */
  public static final double DEFAULT_TAIL_MASS = 1e-15;

  /** The largest σ of a discrete Gaussian whose support is enumerated. */
  public static final double MAX_DISCRETE_GAUSSIAN_SIGMA = 1e5;

  /** The largest FFT length (number of composed grid points). */
  public static final int MAX_COMPOSED_POINTS = 1 << 24;

  private final double interval;
  private final double tailMass;

  /** An accountant with the default interval and tail mass. */
  public PldAccountant() {
    this(DEFAULT_INTERVAL, DEFAULT_TAIL_MASS);
  }

  /**
   * @param interval the loss grid spacing Δ, in [1e-7, 1]
   * @param tailMass the tail P-mass truncated per side, in [1e-300, 1e-3]
   */
  public PldAccountant(double interval, double tailMass) {
    this.interval = Require.inClosedRange("interval", interval, 1e-7, 1);
    this.tailMass = Require.inClosedRange("tailMass", tailMass, 1e-300, 1e-3);
  }

  public double interval() {
    return interval;
  }

  public double tailMass() {
    return tailMass;
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

  /** The pessimistic profile: δ(ε) and ε(δ) are upper bounds. */
  @Override
  public PldProfile account(DpEvent event, Neighbouring neighbouring) {
    return profile(event, neighbouring, Discretization.PESSIMISTIC);
  }

  /** The optimistic profile: δ(ε) and ε(δ) are lower bounds. */
  public PldProfile accountOptimistic(DpEvent event, Neighbouring neighbouring) {
    return profile(event, neighbouring, Discretization.OPTIMISTIC);
  }

  /** ε(δ) from the optimistic and the pessimistic PLD: the true ε lies between. */
  public EpsilonBounds epsilonBounds(DpEvent event, Neighbouring neighbouring, double delta) {
    Require.delta("delta", delta);
    double upper = account(event, neighbouring).epsilon(delta);
    double lower = accountOptimistic(event, neighbouring).epsilon(delta);
    return new EpsilonBounds(Math.min(lower, upper), upper);
  }

  /** δ(ε) from the optimistic and the pessimistic PLD: the true δ lies between. */
  public DeltaBounds deltaBounds(DpEvent event, Neighbouring neighbouring, double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double upper = account(event, neighbouring).delta(epsilon);
    double lower = accountOptimistic(event, neighbouring).delta(epsilon);
    return new DeltaBounds(Math.min(lower, upper), upper);
  }

  private PldProfile profile(DpEvent event, Neighbouring neighbouring, Discretization mode) {
    requireSupported(event, neighbouring);
    Map<DpEvent, Long> counts = new LinkedHashMap<>();
    flatten(event, 1, counts);
    Discretizer discretizer = new Discretizer(interval, tailMass, mode);
    boolean symmetric = true;
    List<Composer.Term> remove = new ArrayList<>();
    List<Composer.Term> add = new ArrayList<>();
    for (Map.Entry<DpEvent, Long> entry : counts.entrySet()) {
      DpEvent leaf = entry.getKey();
      PrivacyLossDistribution removeDistribution =
          discretizer.discretize(model(leaf, Direction.REMOVE));
      remove.add(new Composer.Term(removeDistribution, entry.getValue()));
      if (isSymmetric(leaf)) {
        add.add(new Composer.Term(removeDistribution, entry.getValue()));
      } else {
        symmetric = false;
        add.add(new Composer.Term(
            discretizer.discretize(model(leaf, Direction.ADD)), entry.getValue()));
      }
    }
    Composer composer = new Composer(tailMass, MAX_COMPOSED_POINTS);
    if (symmetric) {
      return new PldProfile(List.of(composer.compose(remove)));
    }
    return new PldProfile(List.of(composer.compose(remove), composer.compose(add)));
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
  private LossModel model(DpEvent leaf, Direction direction) {
    if (leaf instanceof GaussianEvent g) {
      return new SampledGaussianLoss(g.sigma(), 1, Direction.REMOVE);
    }
    if (leaf instanceof LaplaceEvent l) {
      return new SampledLaplaceLoss(l.scale(), 1, Direction.REMOVE);
    }
    if (leaf instanceof DiscreteGaussianEvent dg) {
      return Outcomes.discreteGaussian(dg.sigma(), tailMass);
    }
    if (leaf instanceof PoissonSampledEvent sampled) {
      double q = sampled.samplingProbability();
      if (q == 0) {
        return Outcomes.identity();
      }
      if (q == 1) {
        return model(sampled.event(), direction);
      }
      DpEvent inner = sampled.event();
      if (inner instanceof GaussianEvent g) {
        return new SampledGaussianLoss(g.sigma(), q, direction);
      }
      if (inner instanceof LaplaceEvent l) {
        return new SampledLaplaceLoss(l.scale(), q, direction);
      }
      return ((Outcomes) model(inner, direction)).sampled(q, direction);
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
