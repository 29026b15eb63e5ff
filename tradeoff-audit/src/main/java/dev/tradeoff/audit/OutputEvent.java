package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;
import java.util.function.Predicate;

/**
 * A measurable set S of outputs, the event "M(D) ∈ S" whose probabilities under two neighbouring
 * inputs the auditor compares. Differential privacy bounds the ratio of these probabilities for
 * every S; one S with a provably large ratio proves a lower bound on ε.
 *
 * @param description human-readable description, e.g. {@code "output >= 1.25"}
 * @param membership whether an output lies in S
 * @param <O> output type
 */
public record OutputEvent<O>(String description, Predicate<? super O> membership) {

  public OutputEvent {
    Require.nonNull("description", description);
    Require.nonNull("membership", membership);
  }

  /** Whether {@code output} lies in this event. */
  public boolean contains(O output) {
    return membership.test(output);
  }

  /** The event "output equals {@code value}" (for discrete outputs and SVT answer patterns). */
  public static <O> OutputEvent<O> equalTo(O value) {
    Require.nonNull("value", value);
    return new OutputEvent<>("output = " + value, value::equals);
  }

  /** Number of outputs in {@code outputs} that lie in this event. */
  long count(Iterable<? extends O> outputs) {
    long count = 0;
    for (O output : outputs) {
      if (contains(output)) {
        count++;
      }
    }
    return count;
  }

  @Override
  public String toString() {
    return description;
  }
}
