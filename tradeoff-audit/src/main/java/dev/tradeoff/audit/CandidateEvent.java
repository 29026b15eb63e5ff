package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;

/**
 * An event proposed by an {@link EventFamily}, with how many outputs of each selection sample fall
 * in it. Families compute these counts themselves because many can do so much faster than one
 * pass per event (thresholds by binary search in sorted features, categories by one hash pass).
 *
 * @param event the proposed event
 * @param countFirst outputs on the first input (D) that lie in the event
 * @param countSecond outputs on the second input (D′) that lie in the event
 * @param <O> output type
 */
public record CandidateEvent<O>(OutputEvent<O> event, long countFirst, long countSecond) {

  public CandidateEvent {
    Require.nonNull("event", event);
    Require.that(countFirst >= 0, "countFirst", "must be >= 0", countFirst);
    Require.that(countSecond >= 0, "countSecond", "must be >= 0", countSecond);
  }
}
