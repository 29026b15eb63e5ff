package dev.tradeoff.selection.baseline;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * Papernot and Steinke's Poisson repetition (ICLR 2022, Theorem 6; restated from the paper): run the
 * base mechanism K ~ Poisson(μ) times and return the best (⊥ when K = 0). If the base mechanism is
 * (λ, ε)-RDP and (ε̂, δ̂)-DP with e^{ε̂} ≤ 1 + 1/(λ − 1), the result is (λ, ε′)-RDP with ε′ = ε + μδ̂
 * + log(μ)/(λ − 1).
 *
 * <p>Sampling is by sequential inversion with a double uniform (simulation sampler).
 */
public record PoissonRepetitions(double mean) {

  public PoissonRepetitions {
    Require.positive("mean", mean);
  }

  /** Theorem 6's ε′ (rounded up); refuses parameters outside its hypothesis e^{ε̂} ≤ 1 + 1/(λ−1). */
  public double renyiEpsilon(double lambda, double epsilon, double epsilonHat, double deltaHat) {
    Require.renyiOrder("lambda", lambda);
    Require.nonNegative("epsilon", epsilon);
    Require.nonNegative("epsilonHat", epsilonHat);
    Require.probability("deltaHat", deltaHat);
    Require.that(
        Math.expm1(epsilonHat) <= 1 / (lambda - 1),
        "epsilonHat",
        "must satisfy e^epsilonHat <= 1 + 1/(lambda - 1) (Theorem 6)",
        epsilonHat);
    return Math.nextUp(epsilon + mean * deltaHat + Math.log(mean) / (lambda - 1));
  }

  /** One draw K ≥ 0 (pmf recursion in log space: no underflow for large μ). */
  public long sample(RandomGenerator random) {
    double u = random.nextDouble();
    double logMean = Math.log(mean);
    double logP = -mean;
    double cumulative = Math.exp(logP);
    long k = 0;
    while (u >= cumulative && (k < mean || Math.exp(logP) > 0)) {
      k++;
      logP += logMean - Math.log(k);
      cumulative += Math.exp(logP);
    }
    return k;
  }
}
