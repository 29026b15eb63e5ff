package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The local randomizer R_{n,λ} of [ShuffleGDP21, Algorithm 1, Claim B.1] (Cheu et al. 2019): with
 * probability 1 − λ/n the user reports their bit x, otherwise a fair coin. A 0 is thus reported as
 * 1 with probability p = λ/(2n) and a 1 as 1 with probability 1 − p.
 */
public final class LocalRandomizer {

  private final ShuffleParameters parameters;

  public LocalRandomizer(ShuffleParameters parameters) {
    this.parameters = Require.nonNull("parameters", parameters);
  }

  /** One report of the bit x (0 or 1). */
  public int randomize(int bit, RandomGenerator random) {
    Require.inClosedRange("bit", bit, 0, 1);
    Require.nonNull("random", random);
    if (random.nextDouble() < parameters.randomizationProbability()) {
      return random.nextBoolean() ? 1 : 0;
    }
    return bit;
  }

  public ShuffleParameters parameters() {
    return parameters;
  }
}
