package dev.tradeoff.selection.baseline;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Bernoulli;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.sampling.SnappedLaplace;
import java.util.function.BiPredicate;
import java.util.random.RandomGenerator;

/**
 * Laplace noise reduction (Koufogiannis, Han and Pappas, "Gradual release of sensitive data under
 * differential privacy", JPC 2016; used ex post by Wu et al. 2019, Algorithm "NoiseReduction"):
 * for budgets ε_1 &lt; … &lt; ε_T, draw the least noisy noise first, η_T ~ Lap(Δ/ε_T), then walk down
 * the correlated Markov chain: η_t = η_{t+1} with probability (ε_t/ε_{t+1})², otherwise η_t =
 * η_{t+1} + Lap(Δ/ε_t). Each η_t is marginally Lap(Δ/ε_t), and releasing y + η_1, …, y + η_t costs
 * only ε_t (ex post: the last level released). The estimates are released from the noisiest up,
 * stopping at the first accepted one.
 *
 * <p>The coin is exact for the doubles given; the Laplace draws are {@link SnappedLaplace} (2^−40
 * relative lattice), so the chain's marginals are the snapped Laplace laws.
 */
public final class LaplaceNoiseReduction {

  /** The released estimate, its 0-based level, whether it passed, and the ex-post cost ε_level. */
  public record Result(double estimate, int level, boolean accepted, double spent) {}

  private final double[] budgets;
  private final double sensitivity;

  /**
   * @param budgets ε_1 &lt; … &lt; ε_T (strictly increasing, &gt; 0)
   * @param sensitivity Δ &gt; 0 of the released value
   */
  public LaplaceNoiseReduction(double[] budgets, double sensitivity) {
    this.budgets = Require.finiteValues("budgets", budgets).clone();
    Require.that(budgets.length > 0, "budgets", "must be non-empty", "[]");
    for (int i = 0; i < budgets.length; i++) {
      Require.positive("budgets[" + i + "]", budgets[i]);
      if (i > 0) {
        Require.greaterThan("budgets[" + i + "]", budgets[i], budgets[i - 1]);
      }
    }
    this.sensitivity = Require.positive("sensitivity", sensitivity);
  }

  /** The correlated noise η_1, …, η_T (index t − 1), drawn from η_T down. */
  public double[] noise(RandomGenerator random) {
    int n = budgets.length;
    double[] eta = new double[n];
    eta[n - 1] = SnappedLaplace.forScale(sensitivity / budgets[n - 1]).sample(random);
    for (int t = n - 2; t >= 0; t--) {
      Rational ratio = Rational.exactly(budgets[t]).dividedBy(Rational.exactly(budgets[t + 1]));
      boolean keep = new Bernoulli(ratio.times(ratio)).sample(random);
      eta[t] =
          keep
              ? eta[t + 1]
              : eta[t + 1] + SnappedLaplace.forScale(sensitivity / budgets[t]).sample(random);
    }
    return eta;
  }

  /**
   * Releases y + η_t for t = 1, 2, … until {@code accept(estimate, ε_t)} holds; pays ε_t of the last
   * release (ε_T if none passes).
   */
  public Result run(double value, BiPredicate<Double, Double> accept, RandomGenerator random) {
    Require.finite("value", value);
    Require.nonNull("accept", accept);
    double[] eta = noise(random);
    for (int t = 0; t < budgets.length; t++) {
      double estimate = value + eta[t];
      if (accept.test(estimate, budgets[t])) {
        return new Result(estimate, t, true, budgets[t]);
      }
    }
    int last = budgets.length - 1;
    return new Result(value + eta[last], last, false, budgets[last]);
  }

  /** ε_T, the most a run can cost (what a filter must admit). */
  public double maximumCost() {
    return budgets[budgets.length - 1];
  }
}
