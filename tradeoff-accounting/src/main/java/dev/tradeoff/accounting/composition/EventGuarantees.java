package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.CompositionWalk;
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
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an event tree as a sequence of (ε, δ)-DP guarantees, for the accountants of this package.
 * Leaves with a single (ε, δ): {@code GuaranteeEvent(PureDp | ApproxDp)}, the Laplace and discrete
 * Laplace mechanisms (1/scale)-DP, randomized response (ε-DP for any number of categories);
 * self-composition multiplies counts and composition concatenates. A {@link
 * SampledWithoutReplacementEvent} under replace-one neighbouring reads as one mechanism: its inner
 * event's (ε, δ) (the basic composition of the inner sequence when it has several mechanisms),
 * amplified by {@link WithoutReplacementAmplification} (Balle, Barthe and Gaboardi 2018, Theorem
 * 9). Each run says whether its (ε, δ) is tight (the exact worst case of what the event states:
 * stated guarantees and binary randomized response) or only bounds the mechanism (Laplace, k-ary
 * randomized response, amplified and shuffled steps). One walk of the tree gives the sequence or
 * the reason it cannot be read. Everything else (Gaussian mechanisms, Poisson subsampling, sampling without replacement under
 * add/remove-one or with no relation given, Rényi/zCDP/GDP/f-DP guarantees) has no single (ε, δ)
 * and is refused with the reason.
 */
final class EventGuarantees extends CompositionWalk<List<GuaranteeSequence.Run>> {

  private EventGuarantees(Neighbouring neighbouring) {
    super(neighbouring);
  }

  /**
   * Reads the event as a sequence of (ε, δ) guarantees, or says why it cannot.
   *
   * @param neighbouring the relation, or null when the caller does not know it (then sampling
   *     without replacement is refused)
   */
  static Analysis<GuaranteeSequence> sequence(DpEvent event, Neighbouring neighbouring) {
    return new EventGuarantees(neighbouring).of(event).map(GuaranteeSequence::new);
  }

  @Override
  protected Analysis<List<GuaranteeSequence.Run>> repeated(
      List<GuaranteeSequence.Run> runs, int count) {
    List<GuaranteeSequence.Run> repeated = new ArrayList<>();
    for (GuaranteeSequence.Run run : runs) {
      long product;
      try {
        product = Math.multiplyExact(run.count(), count);
      } catch (ArithmeticException overflow) {
        return Analysis.refused("the total composition count overflows a long");
      }
      repeated.add(new GuaranteeSequence.Run(run.guarantee(), product, run.tight()));
    }
    return Analysis.of(repeated);
  }

  @Override
  protected Analysis<List<GuaranteeSequence.Run>> together(
      List<List<GuaranteeSequence.Run>> parts) {
    List<GuaranteeSequence.Run> all = new ArrayList<>();
    parts.forEach(all::addAll);
    return Analysis.of(all);
  }

  private static Analysis<List<GuaranteeSequence.Run>> one(ApproxDp guarantee, boolean tight) {
    return Analysis.of(List.of(new GuaranteeSequence.Run(guarantee, 1, tight)));
  }

  private static Analysis<List<GuaranteeSequence.Run>> pure(double epsilon, boolean tight) {
    if (!Double.isFinite(epsilon)) {
      return Analysis.refused("epsilon = 1/scale must be finite, but was " + epsilon);
    }
    return one(new ApproxDp(epsilon, 0), tight);
  }

  /** One step per epoch, as for the unshuffled steps, but an upper bound only (not tight). */
  @Override
  public Analysis<List<GuaranteeSequence.Run>> shuffledEpochs(ShuffledEpochsEvent event) {
    return super.shuffledEpochs(event).map(runs -> runs.stream()
        .map(run -> new GuaranteeSequence.Run(run.guarantee(), run.count(), false))
        .toList());
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> guarantee(GuaranteeEvent g) {
    if (g.guarantee() instanceof PureDp pure) {
      return one(pure.toApproxDp(), true);
    }
    if (g.guarantee() instanceof ApproxDp approx) {
      return one(approx, true);
    }
    return Analysis.refused(
        "a "
            + g.guarantee().getClass().getSimpleName()
            + " guarantee is not a single (epsilon, delta) pair; use the rdp, zcdp, gdp or pld"
            + " method");
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> laplace(LaplaceEvent laplace) {
    return pure(inverseRoundedUp(laplace.scale()), false);
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> discreteLaplace(DiscreteLaplaceEvent laplace) {
    return pure(inverseRoundedUp(laplace.scale()), false);
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> randomizedResponse(RandomizedResponseEvent rr) {
    return pure(rr.epsilon(), rr.categories() == 2);
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> gaussian(GaussianEvent event) {
    return Analysis.refused(
        "the Gaussian mechanism has no single (epsilon, delta) guarantee; use the pld, rdp,"
            + " zcdp or gdp method");
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> discreteGaussian(DiscreteGaussianEvent event) {
    return Analysis.refused(
        "the discrete Gaussian mechanism has no single (epsilon, delta) guarantee; use the rdp"
            + " or zcdp method");
  }

  @Override
  public Analysis<List<GuaranteeSequence.Run>> poissonSampled(PoissonSampledEvent event) {
    return Analysis.refused(
        "Poisson subsampling amplification is not analysed by this method; use rdp or pld");
  }

  /**
   * One mechanism: the inner event's (ε, δ) (the basic composition of the inner sequence when it
   * has several mechanisms), amplified by {@link WithoutReplacementAmplification}.
   */
  @Override
  public Analysis<List<GuaranteeSequence.Run>> sampledWithoutReplacement(
      SampledWithoutReplacementEvent sampled) {
    if (neighbouring() != Neighbouring.REPLACE_ONE) {
      return Analysis.refused(
          "sampling without replacement amplifies (epsilon, delta) only under replace-one"
              + " neighbouring (Balle-Barthe-Gaboardi 2018), but the relation was "
              + (neighbouring() == null ? "not given" : neighbouring())
              + "; use rdp under replace-one");
    }
    return of(sampled.event()).flatMap(inner -> {
      ApproxDp innerGuarantee;
      if (inner.size() == 1 && inner.get(0).count() == 1) {
        innerGuarantee = inner.get(0).guarantee();
      } else {
        try {
          innerGuarantee = BasicComposition.compose(new GuaranteeSequence(inner));
        } catch (IllegalArgumentException vacuous) {
          return Analysis.refused(
              "the event inside the without-replacement sampling has no (epsilon, delta)"
                  + " reading: " + vacuous.getMessage());
        }
      }
      return one(WithoutReplacementAmplification.amplify(
          innerGuarantee, sampled.datasetSize(), sampled.sampleSize()), false);
    });
  }

  /** 1/x rounded up: the exact residual q·x − 1 (one fused multiply-add) tells the direction. */
  static double inverseRoundedUp(double x) {
    double q = 1 / x;
    return Double.isFinite(q) && Math.fma(q, x, -1) < 0 ? Math.nextUp(q) : q;
  }
}
