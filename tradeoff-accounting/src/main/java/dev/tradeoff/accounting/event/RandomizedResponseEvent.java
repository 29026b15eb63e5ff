package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * k-ary randomized response with parameter ε: the true value with probability e^ε/(e^ε + k − 1),
 * each other value with probability 1/(e^ε + k − 1). Binary randomized response is k = 2.
 *
 * @param epsilon ε ≥ 0
 * @param categories k ≥ 2
 */
public record RandomizedResponseEvent(double epsilon, int categories) implements DpEvent {
  public RandomizedResponseEvent {
    Require.nonNegative("epsilon", epsilon);
    Require.inClosedRange("categories", categories, 2, Integer.MAX_VALUE);
  }

  /** Binary randomized response. */
  public static RandomizedResponseEvent binary(double epsilon) {
    return new RandomizedResponseEvent(epsilon, 2);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.randomizedResponse(this);
  }
}
