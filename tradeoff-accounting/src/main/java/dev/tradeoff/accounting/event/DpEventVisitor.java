package dev.tradeoff.accounting.event;

/**
 * One method per kind of {@link DpEvent}: an accountant's analysis of an event tree is one visitor,
 * so that what it supports and what it composes come from the same walk, and a new kind of event
 * fails to compile until every accountant says what it does with it.
 *
 * @param <R> what the visit returns
 */
public interface DpEventVisitor<R> {

  R guarantee(GuaranteeEvent event);

  R laplace(LaplaceEvent event);

  R gaussian(GaussianEvent event);

  R discreteLaplace(DiscreteLaplaceEvent event);

  R discreteGaussian(DiscreteGaussianEvent event);

  R randomizedResponse(RandomizedResponseEvent event);

  R poissonSampled(PoissonSampledEvent event);

  R sampledWithoutReplacement(SampledWithoutReplacementEvent event);

  R shuffledEpochs(ShuffledEpochsEvent event);

  R selfComposed(SelfComposedEvent event);

  R composed(ComposedEvent event);
}
