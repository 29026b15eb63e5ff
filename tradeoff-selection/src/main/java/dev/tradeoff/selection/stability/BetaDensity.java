package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;
import org.apache.commons.numbers.gamma.LogBeta;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;

/**
 * The Beta(a, b) density on [0, 1], a known truth for the histogram case study [StabVal13,
 * appendix Section 6.3]: sampling, bin masses and ∫ f² in closed form.
 *
 * <p>∫_{[lo,hi]} f² = B(2a−1, 2b−1)/B(a, b)² · Pr_{Beta(2a−1, 2b−1)}[lo ≤ X ≤ hi], finite for a, b
 * &gt; 1/2.
 *
 * @param a first shape &gt; 1/2
 * @param b second shape &gt; 1/2
 */
public record BetaDensity(double a, double b) {

  public BetaDensity {
    Require.greaterThan("a", a, 0.5);
    Require.greaterThan("b", b, 0.5);
  }

  /** f(x). */
  public double density(double x) {
    return BetaDistribution.of(a, b).density(x);
  }

  /** ∫_{lo}^{hi} f. */
  public double mass(double lo, double hi) {
    return probability(BetaDistribution.of(a, b), lo, hi);
  }

  /** ∫_{lo}^{hi} f². */
  public double squaredMass(double lo, double hi) {
    double scale = Math.exp(LogBeta.value(2 * a - 1, 2 * b - 1) - 2 * LogBeta.value(a, b));
    return scale * probability(BetaDistribution.of(2 * a - 1, 2 * b - 1), lo, hi);
  }

  /** Pr[lo ≤ X ≤ hi] from the lower or the upper tail, whichever avoids cancellation. */
  private static double probability(BetaDistribution d, double lo, double hi) {
    Require.inClosedRange("lo", lo, 0, 1);
    Require.inClosedRange("hi", hi, lo, 1);
    double upper = d.cumulativeProbability(hi);
    if (upper <= 0.5) {
      return upper - d.cumulativeProbability(lo);
    }
    return d.survivalProbability(lo) - d.survivalProbability(hi);
  }

  /** ∫_0^1 f² = ‖f‖². */
  public double squaredNorm() {
    return Math.exp(LogBeta.value(2 * a - 1, 2 * b - 1) - 2 * LogBeta.value(a, b));
  }

  /** n independent draws. */
  public double[] sample(int n, RandomGenerator random) {
    Require.positive("n", n);
    Require.nonNull("random", random);
    UniformRandomProvider provider = random::nextLong;
    ContinuousDistribution.Sampler sampler = BetaDistribution.of(a, b).createSampler(provider);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = sampler.sample();
    }
    return x;
  }
}
