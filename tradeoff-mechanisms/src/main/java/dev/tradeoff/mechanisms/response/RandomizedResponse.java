package dev.tradeoff.mechanisms.response;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.random.RandomGenerator;

/**
 * k-ary randomized response (Warner 1965; the k-ary form of Kairouz, Oh and Viswanath 2016): report
 * the true category v ∈ {0, …, k−1} with probability e^ε/(e^ε + k − 1) and each other category with
 * probability 1/(e^ε + k − 1). Binary randomized response is k = 2.
 *
 * <p>Sampled exactly, without computing e^ε in floating point: propose a uniform category and
 * accept it with probability 1 if it is v and e^{−ε} otherwise ({@link BernoulliExp} on the exact
 * rational ε), repeating until acceptance. The accepted category has exactly the law above; the
 * expected number of proposals is k/(1 + (k − 1)e^{−ε}) ≤ k.
 *
 * <p>Guarantee: exactly ε-DP for any change of the input category (the tight bound: the privacy
 * loss is ±ε). Event: {@link RandomizedResponseEvent}(ε, k).
 */
public final class RandomizedResponse implements Mechanism<Integer, Integer> {

  private final double epsilon;
  private final int categories;
  private final Rational gamma;

  private RandomizedResponse(double epsilon, int categories) {
    this.epsilon = Require.nonNegative("epsilon", epsilon);
    this.categories = Require.inClosedRange("categories", categories, 2, Integer.MAX_VALUE);
    this.gamma = Rational.exactly(epsilon);
  }

  /** k-ary randomized response, k ≥ 2, ε ≥ 0. */
  public static RandomizedResponse kAry(double epsilon, int categories) {
    return new RandomizedResponse(epsilon, categories);
  }

  /** Binary randomized response. */
  public static RandomizedResponse binary(double epsilon) {
    return new RandomizedResponse(epsilon, 2);
  }

  /** The reported category for true category {@code value} in [0, k). */
  public int release(int value, RandomGenerator random) {
    Require.inClosedRange("value", value, 0, categories - 1);
    Require.nonNull("random", random);
    while (true) {
      int proposal = random.nextInt(categories);
      if (proposal == value || BernoulliExp.sample(random, gamma)) {
        return proposal;
      }
    }
  }

  /** Binary convenience: the reported bit (requires k = 2). */
  public boolean release(boolean value, RandomGenerator random) {
    Require.that(categories == 2, "categories", "must be 2 for a boolean input", categories);
    return release(value ? 1 : 0, random) == 1;
  }

  @Override
  public Integer release(Integer value, RandomGenerator random) {
    Require.nonNull("value", value);
    return release(value.intValue(), random);
  }

  /** Pr[report = v] = e^ε/(e^ε + k − 1), in double precision (for display and tests). */
  public double truthProbability() {
    return 1 / (1 + (categories - 1) * Math.exp(-epsilon));
  }

  public double epsilon() {
    return epsilon;
  }

  public int categories() {
    return categories;
  }

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }

  @Override
  public DpEvent event() {
    return new RandomizedResponseEvent(epsilon, categories);
  }
}
