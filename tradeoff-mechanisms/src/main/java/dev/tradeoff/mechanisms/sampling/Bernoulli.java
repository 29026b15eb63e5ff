package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * Bernoulli(p) for a rational p, sampled exactly: a uniform integer below the denominator is
 * compared with the numerator. Pr[true] = p with no rounding at all.
 *
 * @param probability p in [0, 1]
 */
public record Bernoulli(Rational probability) {

  public Bernoulli {
    Require.nonNull("probability", probability);
    Require.that(
        probability.compareTo(Rational.ONE) <= 0, "probability", "must be in [0, 1]", probability);
  }

  /** One draw: true with probability exactly p. */
  public boolean sample(RandomGenerator random) {
    return UniformIntegers.bernoulli(random, probability.numerator(), probability.denominator());
  }
}
