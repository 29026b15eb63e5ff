package dev.tradeoff.audit;

import java.util.random.RandomGenerator;

/**
 * Test fixtures: small, exact-in-distribution reference mechanisms (correct and deliberately
 * broken) sampled from an explicit generator. Continuous noise uses the difference of two
 * exponentials, −log(1 − U) with U in [0, 1), so no log(0) can occur.
 */
final class ReferenceMechanisms {

  private ReferenceMechanisms() {}

  /** Standard exponential variate. */
  static double exponential(RandomGenerator random) {
    return -Math.log1p(-random.nextDouble());
  }

  /** Laplace(0, scale) variate as the difference of two exponentials. */
  static double laplace(double scale, RandomGenerator random) {
    return scale * (exponential(random) - exponential(random));
  }

  /** Laplace mechanism on a sensitivity-1 value with noise scale {@code scale}. */
  static AuditedMechanism<Double, Double> laplaceMechanism(double scale) {
    return (value, random) -> value + laplace(scale, random);
  }

  /** Binary randomized response: keeps the bit with probability e^ε/(1 + e^ε); tight ε-DP. */
  static AuditedMechanism<Integer, Integer> randomizedResponse(double epsilon) {
    double keep = 1 / (1 + Math.exp(-epsilon));
    return (bit, random) -> random.nextDouble() < keep ? bit : 1 - bit;
  }

  /**
   * Exponential mechanism (McSherry–Talwar 2007) selecting an index with probability ∝
   * exp(ε u_i / (divisor · Δ)). Correct: divisor 2. Broken ("half the sensitivity"): divisor 1.
   */
  static AuditedMechanism<double[], Integer> exponentialMechanism(
      double epsilon, double sensitivity, double divisor) {
    return (utilities, random) -> {
      double[] logWeights = new double[utilities.length];
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < utilities.length; i++) {
        logWeights[i] = epsilon * utilities[i] / (divisor * sensitivity);
        max = Math.max(max, logWeights[i]);
      }
      double total = 0;
      double[] weights = new double[utilities.length];
      for (int i = 0; i < utilities.length; i++) {
        weights[i] = Math.exp(logWeights[i] - max);
        total += weights[i];
      }
      double u = random.nextDouble() * total;
      for (int i = 0; i < weights.length; i++) {
        u -= weights[i];
        if (u < 0) {
          return i;
        }
      }
      return weights.length - 1;
    };
  }

  /**
   * Sparse vector / AboveThreshold in the parametrization of Lyu, Su and Li 2017 (Figure 1):
   * threshold noise ρ ~ Lap(thresholdScale), per-query noise ν_i ~ Lap(queryScale) (none when 0),
   * answer ⊤ when q_i + ν_i ≥ T + ρ and ⊥ otherwise, stop after {@code cutoff} ⊤ answers. The
   * output is the answer pattern as a string of 'T' and 'F'.
   */
  static AuditedMechanism<double[], String> sparseVector(
      double threshold, double thresholdScale, double queryScale, int cutoff) {
    return (queries, random) -> {
      double noisyThreshold = threshold + laplace(thresholdScale, random);
      StringBuilder answers = new StringBuilder();
      int positives = 0;
      for (double q : queries) {
        double noise = queryScale == 0 ? 0 : laplace(queryScale, random);
        if (q + noise >= noisyThreshold) {
          answers.append('T');
          positives++;
          if (positives >= cutoff) {
            break;
          }
        } else {
          answers.append('F');
        }
      }
      return answers.toString();
    };
  }

  /** Lyu–Su–Li Algorithm 1 (correct): ε1 = ε/2, ρ ~ Lap(Δ/ε1), ν ~ Lap(2cΔ/ε2), cutoff c. */
  static AuditedMechanism<double[], String> svtCorrect(double epsilon, int c) {
    return sparseVector(0.5, 2 / epsilon, 2 * c * 2 / epsilon, c);
  }

  /** Lyu–Su–Li Algorithm 5 (Stoddard et al. 2014): no query noise, no cutoff; ∞-DP. */
  static AuditedMechanism<double[], String> svtNoQueryNoise(double epsilon) {
    return sparseVector(0.5, 2 / epsilon, 0, Integer.MAX_VALUE);
  }

  /** Lyu–Su–Li Algorithm 6 (Chen et al. 2015): ν ~ Lap(Δ/ε2) not scaled with c, no cutoff; ∞-DP. */
  static AuditedMechanism<double[], String> svtNoCutoff(double epsilon) {
    return sparseVector(0.5, 2 / epsilon, 2 / epsilon, Integer.MAX_VALUE);
  }

  /**
   * Lyu–Su–Li Algorithm 4 (Lee and Clifton 2014): ε1 = ε/4, ρ ~ Lap(Δ/ε1), ν ~ Lap(Δ/ε2) with ε2
   * = 3ε/4 (not scaled with c), cutoff c; only ((1 + 6c)/4)ε-DP.
   */
  static AuditedMechanism<double[], String> svtUnscaledQueryNoise(double epsilon, int c) {
    return sparseVector(0.5, 4 / epsilon, 4 / (3 * epsilon), c);
  }
}
