package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.sampling.Geometric;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Generalized AboveThreshold with random dropping [ExPost25, Algorithm 2]:
 *
 * <pre>
 *   k ~ Geom_{e^{−ε′}}
 *   for i = 1..d: y_i ~ Ber(e^{−ε_i k}); if y_i = 1: o_i ← M_i(D); if o_i ≥ τ: return (o_i, i)
 *   return ⊥
 * </pre>
 *
 * <p>Guarantee (Theorem 10): with each M_i ε_i-DP, ex-post ε̃-DP with ε̃(o, i) = 2ε_i + ε′ and ε̃(⊥) =
 * ε′ (unlike Algorithm 3, ⊥ is not free here). Sums are rounded up. The level and the drops are
 * sampled exactly.
 *
 * @param <O> the artefact type
 */
public final class RandomDroppingAboveThreshold<O> {

  private final List<PureDpCandidate<O>> candidates;
  private final double epsilonPrime;
  private final double threshold;
  private final Geometric level;
  private final double[] outcomeEpsilons;
  private final double exAnte;

  private RandomDroppingAboveThreshold(
      List<PureDpCandidate<O>> candidates, double epsilonPrime, double threshold) {
    this.candidates = RandomDropping.nonEmpty(candidates);
    this.epsilonPrime = Require.positive("epsilonPrime", epsilonPrime);
    Require.that(!Double.isNaN(threshold), "threshold", "must not be NaN", threshold);
    this.threshold = threshold;
    this.level = Geometric.withFailureProbabilityExpMinus(epsilonPrime);
    this.outcomeEpsilons = new double[this.candidates.size()];
    double max = epsilonPrime;
    for (int i = 0; i < outcomeEpsilons.length; i++) {
      outcomeEpsilons[i] = DirectedRounding.sumUp(2 * this.candidates.get(i).epsilon(), epsilonPrime);
      max = Math.max(max, outcomeEpsilons[i]);
    }
    this.exAnte = max;
  }

  /** Algorithm 2 over {@code candidates}, additional budget ε′ and score threshold τ. */
  public static <O> RandomDroppingAboveThreshold<O> of(
      List<PureDpCandidate<O>> candidates, double epsilonPrime, double threshold) {
    return new RandomDroppingAboveThreshold<>(candidates, epsilonPrime, threshold);
  }

  /** One execution; {@code runs} counts the candidates run before stopping. */
  public TuningRun<O> run(RandomGenerator random) {
    Require.nonNull("random", random);
    Rational k = Rational.of(level.sample(random), 1);
    int runs = 0;
    for (int i = 0; i < candidates.size(); i++) {
      PureDpCandidate<O> c = candidates.get(i);
      if (RandomDropping.keep(random, c.epsilon(), k)) {
        runs++;
        Scored<O> o = RandomDropping.runChecked(c.mechanism(), i, random);
        if (o.score() >= threshold) {
          return new TuningRun<>(new TuningOutcome.Selected<>(o, i), runs);
        }
      }
    }
    return new TuningRun<>(new TuningOutcome.None<>(), runs);
  }

  /** Theorem 10: ε̃(o, i) = 2ε_i + ε′, ε̃(⊥) = ε′ (rounded up). */
  public ExPostDp<TuningOutcome<O>> guarantee() {
    double[] eps = outcomeEpsilons.clone();
    double bottom = epsilonPrime;
    return ExPostDp.pure(
        o -> o instanceof TuningOutcome.Selected<O> s ? eps[s.index()] : bottom, exAnte);
  }

  /** τ. */
  public double threshold() {
    return threshold;
  }
}
