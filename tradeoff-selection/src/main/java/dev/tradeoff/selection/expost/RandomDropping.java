package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.List;
import java.util.random.RandomGenerator;

/** The random-dropping step shared by Algorithms 2 and 3: y_i ~ Ber(e^{−ε_i·k}), drawn exactly. */
final class RandomDropping {

  private RandomDropping() {}

  /** True (keep, y_i = 1) with probability exactly e^{−ε·level} for the doubles given. */
  static boolean keep(RandomGenerator random, double epsilon, Rational level) {
    return BernoulliExp.sample(random, Rational.exactly(epsilon).times(level));
  }

  static <T> List<T> nonEmpty(List<T> candidates) {
    Require.nonNull("candidates", candidates);
    Require.that(!candidates.isEmpty(), "candidates", "must be a non-empty list", "[]");
    for (int i = 0; i < candidates.size(); i++) {
      Require.nonNull("candidates[" + i + "]", candidates.get(i));
    }
    return List.copyOf(candidates);
  }

  static <O> Scored<O> runChecked(Candidate<O> mechanism, int index, RandomGenerator random) {
    Scored<O> result = mechanism.run(random);
    if (result == null) {
      throw new IllegalStateException("candidate " + index + " returned no result (null)");
    }
    return result;
  }
}
