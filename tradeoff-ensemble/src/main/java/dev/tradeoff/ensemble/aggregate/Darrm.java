package dev.tradeoff.ensemble.aggregate;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.random.RandomGenerator;

/**
 * DaRRM, Algorithm 1 of [DaRRM24]: given the K teachers' binary votes,
 * with L = Σ votes, output the majority I{L ≥ (K + 1)/2} with probability γ(L) and a fair coin
 * otherwise. It is private only for a γ that passed {@code PrivacyVerifier}; {@link
 * BatchAggregator} enforces that.
 */
public final class Darrm {

  private Darrm() {}

  /**
   * One aggregated label.
   *
   * @param votes K binary votes (0 or 1)
   * @param gamma the noise function, K + 1 values
   * @param random the randomness (use a {@link java.security.SecureRandom} in production)
   */
  public static int aggregate(int[] votes, NoiseFunction gamma, RandomGenerator random) {
    Require.nonNull("votes", votes);
    Require.nonNull("gamma", gamma);
    Require.nonNull("random", random);
    int k = gamma.teachers();
    Require.that(votes.length == k, "votes", "must have K = " + k + " entries", votes.length);
    int sum = 0;
    for (int i = 0; i < votes.length; i++) {
      Require.that(votes[i] == 0 || votes[i] == 1, "votes[" + i + "]", "must be 0 or 1",
          votes[i]);
      sum += votes[i];
    }
    int majority = 2 * sum >= k + 1 ? 1 : 0;
    if (random.nextDouble() < gamma.at(sum)) {
      return majority;
    }
    return random.nextBoolean() ? 1 : 0;
  }
}
