package dev.tradeoff.audit;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * Everything an audit needs besides the sample budget and the randomness: the mechanism, a pair of
 * neighbouring inputs chosen to expose its worst case, the guarantee it claims, and the family of
 * output events to search.
 *
 * @param name short name for reports, e.g. {@code "laplace(epsilon=1.0)"}
 * @param mechanism the mechanism under audit
 * @param first the input D
 * @param second the neighbouring input D′
 * @param claimed the claimed (ε, δ)-DP guarantee (a pure guarantee has δ = 0)
 * @param events where to look for a distinguishing event
 * @param <I> input type
 * @param <O> output type
 */
public record AuditCase<I, O>(
    String name,
    AuditedMechanism<I, O> mechanism,
    I first,
    I second,
    ApproxDp claimed,
    EventFamily<O> events) {

  public AuditCase {
    Require.nonNull("name", name);
    Require.nonNull("mechanism", mechanism);
    Require.nonNull("first", first);
    Require.nonNull("second", second);
    Require.nonNull("claimed", claimed);
    Require.nonNull("events", events);
  }
}
