package dev.tradeoff.audit;

import java.util.random.RandomGenerator;

/**
 * A randomized mechanism under audit: a function from an input (a dataset, a vector of query
 * answers, a utility vector, ...) and an explicit randomness source to one output. The auditor
 * never looks inside; it only draws outputs, so any mechanism — Tradeoff's or a user's — can be
 * audited.
 *
 * <p>The mechanism must draw all its randomness from the generator it is given, so that a seeded
 * generator makes an audit reproducible. It must not return {@code null}; an exception thrown by
 * the mechanism aborts the audit (an audit never passes a mechanism it could not run).
 *
 * @param <I> input type
 * @param <O> output type (a number, an integer, a category, a vector of answers, ...)
 */
@FunctionalInterface
public interface AuditedMechanism<I, O> {

  /** Runs the mechanism once on {@code input}, drawing randomness only from {@code random}. */
  O apply(I input, RandomGenerator random);
}
