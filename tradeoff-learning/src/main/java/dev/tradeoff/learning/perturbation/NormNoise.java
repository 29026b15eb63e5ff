package dev.tradeoff.learning.perturbation;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Exponential;
import java.util.random.RandomGenerator;

/**
 * The noise of Chaudhuri, Monteleoni and Sarwate (2011, Algorithm 1) and of [StabVal13,
 * Algorithm 4]: a vector b ∈ ℝᵈ with density proportional to exp(−‖b‖/θ). In polar coordinates its
 * norm has density ∝ r^{d−1} e^{−r/θ}, i.e. ‖b‖ ~ Gamma(shape d, scale θ), and its direction is
 * uniform on the sphere, independent of the norm.
 *
 * <p>Sampling: the norm is a sum of d independent Exp(rate 1/θ) draws (exact integer part and
 * 2^−53-resolution fractional part, see {@link Exponential}); the direction is a vector of d
 * standard normals from the generator, normalised. Both use only the supplied generator.
 *
 * @param dimension d ≥ 1
 * @param scale θ &gt; 0 (the sensitivity divided by ε for ε-DP)
 */
public record NormNoise(int dimension, double scale) {

  public NormNoise {
    Require.positive("dimension", dimension);
    Require.positive("scale", scale);
  }

  /** One draw of ‖b‖ ~ Gamma(d, θ). */
  public double sampleNorm(RandomGenerator random) {
    Require.nonNull("random", random);
    Exponential exponential = new Exponential(1 / scale);
    double sum = 0;
    for (int i = 0; i < dimension; i++) {
      sum += exponential.sample(random);
    }
    return sum;
  }

  /** A uniformly random unit vector in ℝᵈ. */
  public double[] sampleDirection(RandomGenerator random) {
    Require.nonNull("random", random);
    double[] u = new double[dimension];
    double norm;
    do {
      double s = 0;
      for (int i = 0; i < dimension; i++) {
        u[i] = random.nextGaussian();
        s += u[i] * u[i];
      }
      norm = Math.sqrt(s);
    } while (norm == 0);
    for (int i = 0; i < dimension; i++) {
      u[i] /= norm;
    }
    return u;
  }

  /** One draw of b: a Gamma(d, θ) norm times a uniform direction. */
  public double[] sample(RandomGenerator random) {
    double r = sampleNorm(random);
    double[] b = sampleDirection(random);
    for (int i = 0; i < dimension; i++) {
      b[i] *= r;
    }
    return b;
  }

  /**
   * A radius r with Pr[Gamma(d, 1) &gt; r] ≤ failureProbability: r = d·ln(d/failureProbability)
   * (Chaudhuri, Monteleoni and Sarwate 2011, Lemma 4), rounded up. Scaled by {@link #scale()} it
   * bounds the norm of this noise with that probability.
   *
   * @param dimension d ≥ 1
   * @param failureProbability in (0, 1)
   */
  public static double gammaNormRadius(int dimension, double failureProbability) {
    Require.positive("dimension", dimension);
    Require.openUnit("failureProbability", failureProbability);
    return Math.nextUp(dimension * Math.log(dimension / failureProbability));
  }
}
