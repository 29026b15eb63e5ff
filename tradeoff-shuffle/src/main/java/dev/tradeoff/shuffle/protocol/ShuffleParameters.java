package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;

/**
 * The parameters of the summation protocols of Cheu et al. (2019) as analysed in
 * [ShuffleGDP21, Algorithms 1 and 3]: n users, of whom
 * λ in expectation replace their bit by a fair coin.
 *
 * @param users n ≥ 2
 * @param lambda λ in (0, n)
 */
public record ShuffleParameters(int users, double lambda) {

  public ShuffleParameters {
    Require.that(users >= 2, "users", "must be >= 2", users);
    Require.finite("lambda", lambda);
    Require.that(lambda > 0 && lambda < users, "lambda", "must be in (0, " + users + ")", lambda);
  }

  /** λ/n, the probability that one user's report is a fair coin instead of their bit. */
  public double randomizationProbability() {
    return lambda / users;
  }

  /** p = λ/(2n), the probability that a 0 is reported as 1 (and a 1 as 0). */
  public double flipProbability() {
    return lambda / (2.0 * users);
  }

  /**
   * ε₀ = ln((2n − λ)/λ) = ln((1 − p)/p): the local randomizer R_{n,λ} is ε₀-LDP (the largest ratio
   * of the report probabilities for inputs 0 and 1).
   */
  public double localEpsilon() {
    return Math.log((2.0 * users - lambda) / lambda);
  }
}
