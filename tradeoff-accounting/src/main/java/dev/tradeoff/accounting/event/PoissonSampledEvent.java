package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The inner event run on a Poisson subsample: each record is kept independently with probability
 * q. Amplification is analysed under add/remove-one neighbouring.
 *
 * @param samplingProbability q in [0, 1]
 * @param event the event run on the subsample
 */
public record PoissonSampledEvent(double samplingProbability, DpEvent event) implements DpEvent {
  public PoissonSampledEvent {
    Require.probability("samplingProbability", samplingProbability);
    Require.nonNull("event", event);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.poissonSampled(this);
  }
}
