package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.sampling.Geometric;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Hyperparameter tuning with random dropping [ExPost25, Algorithm 3] with geometric dropping
 * level, 𝓔 = Geom_{e^{−ε′}}:
 *
 * <pre>
 *   S ← {⊥};  k ~ Geom_{e^{−ε′}}
 *   for i = 1..d: y_i ~ Ber(e^{−ε_i k}); if y_i = 1: S ← S ∪ {(M_i(D), i)}
 *   return max S      (⊥ lowest; pairs lexicographic in (score, index))
 * </pre>
 *
 * <p>Guarantee (Theorem 11): if each M_i is ε_i-DP, the output is ex-post ε̃-DP with ε̃(o, i) = 2ε_i
 * + ε′ and ε̃(⊥) = 0. The sums are rounded up to the next double. The number of candidate runs does
 * not depend on the data. Both the level k and the drops are sampled exactly ({@link Geometric},
 * {@link dev.tradeoff.mechanisms.sampling.BernoulliExp}) for the doubles ε′, ε_i given.
 *
 * <p>To run a mechanism several times (Theorem 12), list it several times; {@link
 * RepetitionCount} gives the counts T_i.
 *
 * @param <O> the artefact type
 */
public final class RandomDroppingTuner<O> {

  private final List<PureDpCandidate<O>> candidates;
  private final double epsilonPrime;
  private final Geometric level;
  private final double[] outcomeEpsilons;
  private final double exAnte;

  private RandomDroppingTuner(List<PureDpCandidate<O>> candidates, double epsilonPrime) {
    this.candidates = RandomDropping.nonEmpty(candidates);
    this.epsilonPrime = Require.positive("epsilonPrime", epsilonPrime);
    this.level = Geometric.withFailureProbabilityExpMinus(epsilonPrime);
    this.outcomeEpsilons = new double[this.candidates.size()];
    double max = 0;
    for (int i = 0; i < outcomeEpsilons.length; i++) {
      outcomeEpsilons[i] = DirectedRounding.sumUp(2 * this.candidates.get(i).epsilon(), epsilonPrime);
      max = Math.max(max, outcomeEpsilons[i]);
    }
    this.exAnte = max;
  }

  /**
   * Algorithm 3 over {@code candidates} with additional budget ε′.
   *
   * @throws IllegalArgumentException if the list is empty or ε′ is not &gt; 0 and finite
   */
  public static <O> RandomDroppingTuner<O> of(List<PureDpCandidate<O>> candidates, double epsilonPrime) {
    return new RandomDroppingTuner<>(candidates, epsilonPrime);
  }

  /** One execution; the candidates run with {@code random} too. */
  public TuningRun<O> run(RandomGenerator random) {
    Require.nonNull("random", random);
    Rational k = Rational.of(level.sample(random), 1);
    Comparator<TuningOutcome<O>> order = TuningOutcome.order();
    TuningOutcome<O> best = new TuningOutcome.None<>();
    int runs = 0;
    for (int i = 0; i < candidates.size(); i++) {
      PureDpCandidate<O> c = candidates.get(i);
      if (RandomDropping.keep(random, c.epsilon(), k)) {
        runs++;
        TuningOutcome<O> o =
            new TuningOutcome.Selected<>(RandomDropping.runChecked(c.mechanism(), i, random), i);
        if (order.compare(o, best) > 0) {
          best = o;
        }
      }
    }
    return new TuningRun<>(best, runs);
  }

  /** Theorem 11: ε̃(o, i) = 2ε_i + ε′ (rounded up), ε̃(⊥) = 0; ex-ante max_i (2ε_i + ε′). */
  public ExPostDp<TuningOutcome<O>> guarantee() {
    double[] eps = outcomeEpsilons.clone();
    return ExPostDp.pure(
        o -> o instanceof TuningOutcome.Selected<O> s ? eps[s.index()] : 0.0, exAnte);
  }

  /** ε̃ of an outcome from candidate {@code index}: 2ε_i + ε′, rounded up. */
  public double epsilonOfCandidate(int index) {
    return outcomeEpsilons[index];
  }

  /** ε′. */
  public double epsilonPrime() {
    return epsilonPrime;
  }

  /** The candidates, in order. */
  public List<PureDpCandidate<O>> candidates() {
    return candidates;
  }

  /**
   * E[number of runs] = Σ_i E[e^{−ε_i k}] = Σ_i (1 − e^{−ε′})/(1 − e^{−ε′−ε_i}), exact series sum.
   */
  public double expectedRuns() {
    double sum = 0;
    for (PureDpCandidate<O> c : candidates) {
      sum += Math.expm1(-epsilonPrime) / Math.expm1(-epsilonPrime - c.epsilon());
    }
    return sum;
  }
}
