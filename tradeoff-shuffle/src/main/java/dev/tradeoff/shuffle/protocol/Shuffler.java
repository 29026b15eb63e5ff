package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The shuffler S of the shuffle model ([ShuffleGDP21, Section 1]; Cheu et al. 2019): a uniformly
 * random permutation of the messages, by Fisher–Yates (Durstenfeld) with unbiased bounded draws
 * {@link RandomGenerator#nextInt(int)}. Production callers pass a {@link java.security.SecureRandom}.
 */
public final class Shuffler {

  private Shuffler() {}

  /** A uniformly random permutation of the messages, as a new array. */
  public static int[] shuffle(int[] messages, RandomGenerator random) {
    Require.nonNull("messages", messages);
    Require.nonNull("random", random);
    int[] out = messages.clone();
    for (int i = out.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}
