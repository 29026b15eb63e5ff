package dev.tradeoff.selection.baseline;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Bernoulli;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.selection.expost.Candidate;
import dev.tradeoff.selection.expost.Scored;
import java.util.random.RandomGenerator;

/**
 * Liu and Talwar's random stopping (Liu and Talwar, "Private selection from private candidates",
 * STOC 2019, Section 3): run the ε-DP mechanism, keep the best output so far, and after each run
 * stop with probability γ. The number of runs is geometric on {1, 2, …} with mean 1/γ. Guarantee:
 * 3ε-DP ex ante (their Theorem 3.4 for pure-DP candidates; [ExPost25, Section 1] quotes it
 * as "only 3ε"). The stopping coin is exact for the double γ given.
 */
public final class RandomStopping {

  private final double epsilon;
  private final Bernoulli stop;

  /**
   * @param epsilon ε &gt; 0 of the candidate mechanism
   * @param stoppingProbability γ in (0, 1]
   */
  public RandomStopping(double epsilon, double stoppingProbability) {
    this.epsilon = Require.positive("epsilon", epsilon);
    Require.inClosedRange("stoppingProbability", stoppingProbability, Double.MIN_VALUE, 1);
    this.stop = new Bernoulli(Rational.exactly(stoppingProbability));
  }

  /** The best (largest-score; the first among ties) output and the number of runs. */
  public <O> Result<O> run(Candidate<O> mechanism, RandomGenerator random) {
    Require.nonNull("mechanism", mechanism);
    Scored<O> best = null;
    int runs = 0;
    do {
      Scored<O> s = mechanism.run(random);
      runs++;
      if (best == null || s.score() > best.score()) {
        best = s;
      }
    } while (!stop.sample(random));
    return new Result<>(best, runs);
  }

  /** 3ε-DP (rounded up). */
  public PureDp guarantee() {
    return new PureDp(Math.nextUp(3 * epsilon));
  }

  /** The output and how many runs it took. */
  public record Result<O>(Scored<O> best, int runs) {}
}
