package dev.tradeoff.accounting.composition;

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
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads an event tree as a sequence of (ε, δ)-DP guarantees, for the accountants of this package.
 * Leaves with a single (ε, δ): {@code GuaranteeEvent(PureDp | ApproxDp)}, the Laplace and discrete
 * Laplace mechanisms (1/scale)-DP, randomized response (ε-DP for any number of categories);
 * self-composition multiplies counts and composition concatenates. A {@link
 * SampledWithoutReplacementEvent} under replace-one neighbouring reads as one mechanism: its inner
 * event's (ε, δ) (the basic composition of the inner sequence when it has several mechanisms),
 * amplified by {@link WithoutReplacementAmplification} (Balle, Barthe and Gaboardi 2018, Theorem
 * 9). Everything else (Gaussian mechanisms, Poisson subsampling, sampling without replacement under
 * add/remove-one or with no relation given, Rényi/zCDP/GDP/f-DP guarantees) has no single (ε, δ)
 * and is refused with the reason.
 */
final class EventGuarantees {

  private EventGuarantees() {}

  /**
   * Reads the event, or says why it cannot be read as a sequence of (ε, δ) guarantees.
   *
   * @param neighbouring the relation, or null when the caller does not know it (then sampling
   *     without replacement is refused)
   */
  static Optional<String> whyUnreadable(DpEvent event, Neighbouring neighbouring) {
    return collect(event, 1, new ArrayList<>(), neighbouring);
  }

  /** The event's sequence; call only when {@link #whyUnreadable} is empty. */
  static GuaranteeSequence sequence(DpEvent event, Neighbouring neighbouring) {
    List<GuaranteeSequence.Run> runs = new ArrayList<>();
    Optional<String> reason = collect(event, 1, runs, neighbouring);
    if (reason.isPresent()) {
      throw new IllegalStateException(reason.get());
    }
    return new GuaranteeSequence(runs);
  }

  private static Optional<String> collect(
      DpEvent event,
      long multiplicity,
      List<GuaranteeSequence.Run> into,
      Neighbouring neighbouring) {
    if (event instanceof GuaranteeEvent g) {
      if (g.guarantee() instanceof PureDp pure) {
        return add(pure.toApproxDp(), multiplicity, into);
      }
      if (g.guarantee() instanceof ApproxDp approx) {
        return add(approx, multiplicity, into);
      }
      return Optional.of(
          "a "
              + g.guarantee().getClass().getSimpleName()
              + " guarantee is not a single (epsilon, delta) pair; use the rdp, zcdp, gdp or pld"
              + " method");
    }
    if (event instanceof LaplaceEvent laplace) {
      return addPure(inverseRoundedUp(laplace.scale()), multiplicity, into);
    }
    if (event instanceof DiscreteLaplaceEvent laplace) {
      return addPure(inverseRoundedUp(laplace.scale()), multiplicity, into);
    }
    if (event instanceof RandomizedResponseEvent rr) {
      return addPure(rr.epsilon(), multiplicity, into);
    }
    if (event instanceof GaussianEvent) {
      return Optional.of(
          "the Gaussian mechanism has no single (epsilon, delta) guarantee; use the pld, rdp,"
              + " zcdp or gdp method");
    }
    if (event instanceof DiscreteGaussianEvent) {
      return Optional.of(
          "the discrete Gaussian mechanism has no single (epsilon, delta) guarantee; use the rdp"
              + " or zcdp method");
    }
    if (event instanceof PoissonSampledEvent) {
      return Optional.of(
          "Poisson subsampling amplification is not analysed by this method; use rdp or pld");
    }
    if (event instanceof SampledWithoutReplacementEvent sampled) {
      return collectWithoutReplacement(sampled, multiplicity, into, neighbouring);
    }
    if (event instanceof SelfComposedEvent self) {
      long product;
      try {
        product = Math.multiplyExact(multiplicity, self.count());
      } catch (ArithmeticException overflow) {
        return Optional.of("the total composition count overflows a long");
      }
      return collect(self.event(), product, into, neighbouring);
    }
    ComposedEvent composed = (ComposedEvent) event; // the last permitted DpEvent
    for (DpEvent inner : composed.events()) {
      Optional<String> reason = collect(inner, multiplicity, into, neighbouring);
      if (reason.isPresent()) {
        return reason;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> collectWithoutReplacement(
      SampledWithoutReplacementEvent sampled,
      long multiplicity,
      List<GuaranteeSequence.Run> into,
      Neighbouring neighbouring) {
    if (neighbouring != Neighbouring.REPLACE_ONE) {
      return Optional.of(
          "sampling without replacement amplifies (epsilon, delta) only under replace-one"
              + " neighbouring (Balle-Barthe-Gaboardi 2018), but the relation was "
              + (neighbouring == null ? "not given" : neighbouring)
              + "; use rdp under replace-one");
    }
    List<GuaranteeSequence.Run> inner = new ArrayList<>();
    Optional<String> reason = collect(sampled.event(), 1, inner, neighbouring);
    if (reason.isPresent()) {
      return reason;
    }
    ApproxDp innerGuarantee;
    if (inner.size() == 1 && inner.get(0).count() == 1) {
      innerGuarantee = inner.get(0).guarantee();
    } else {
      try {
        innerGuarantee = BasicComposition.compose(new GuaranteeSequence(inner));
      } catch (IllegalArgumentException vacuous) {
        return Optional.of(
            "the event inside the without-replacement sampling has no (epsilon, delta) reading: "
                + vacuous.getMessage());
      }
    }
    return add(
        WithoutReplacementAmplification.amplify(
            innerGuarantee, sampled.datasetSize(), sampled.sampleSize()),
        multiplicity,
        into);
  }

  private static Optional<String> addPure(
      double epsilon, long multiplicity, List<GuaranteeSequence.Run> into) {
    if (!Double.isFinite(epsilon)) {
      return Optional.of("epsilon = 1/scale must be finite, but was " + epsilon);
    }
    return add(new ApproxDp(epsilon, 0), multiplicity, into);
  }

  private static Optional<String> add(
      ApproxDp guarantee, long multiplicity, List<GuaranteeSequence.Run> into) {
    into.add(new GuaranteeSequence.Run(guarantee, multiplicity));
    return Optional.empty();
  }

  /** 1/x rounded up: the exact residual q·x − 1 (one fused multiply-add) tells the direction. */
  static double inverseRoundedUp(double x) {
    double q = 1 / x;
    return Double.isFinite(q) && Math.fma(q, x, -1) < 0 ? Math.nextUp(q) : q;
  }
}
