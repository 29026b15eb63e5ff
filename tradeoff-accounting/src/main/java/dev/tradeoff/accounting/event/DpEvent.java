package dev.tradeoff.accounting.event;

/**
 * What ran, as an immutable event tree (the dp_accounting design): leaves are mechanisms, inner
 * nodes are sampling and composition. An accountant either supports an event or refuses it with
 * a reason; it never approximates silently.
 *
 * <p>All noise mechanisms are stated for sensitivity 1: scale the noise parameter by the
 * sensitivity first (a Laplace mechanism with scale b on a query of sensitivity Δ is
 * {@code new LaplaceEvent(b / Δ)}).
 */
public sealed interface DpEvent
    permits GuaranteeEvent,
        LaplaceEvent,
        GaussianEvent,
        DiscreteLaplaceEvent,
        DiscreteGaussianEvent,
        RandomizedResponseEvent,
        PoissonSampledEvent,
        SampledWithoutReplacementEvent,
        ShuffledEpochsEvent,
        SelfComposedEvent,
        ComposedEvent {

  /** Calls the visitor's method for this kind of event. */
  <R> R accept(DpEventVisitor<R> visitor);
}
