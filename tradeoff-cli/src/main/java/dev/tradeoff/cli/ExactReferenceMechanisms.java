package dev.tradeoff.cli;

import dev.tradeoff.audit.AuditedMechanism;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Textbook samplers that are exact in distribution up to double rounding: Laplace as b(E1 − E2)
 * with E = −log1p(−U), U uniform in [0, 1) (never log 0), randomized response by one uniform
 * comparison. They are what {@code tradeoff audit} runs until the hardened mechanisms of {@code
 * tradeoff-mechanisms} are wired into {@link AuditableMechanisms}. (Distributionally they agree
 * with the hardened ones; only the floating-point side channel of Mironov 2012 differs, which an
 * audit from samples cannot see.)
 */
final class ExactReferenceMechanisms implements AuditableMechanisms {

  @Override
  public AuditedMechanism<Double, Double> laplace(double scale) {
    return (value, random) ->
        value + scale * (-Math.log1p(-random.nextDouble()) + Math.log1p(-random.nextDouble()));
  }

  @Override
  public AuditedMechanism<Integer, Integer> randomizedResponse(double epsilon) {
    double keep = 1 / (1 + Math.exp(-epsilon));
    return (bit, random) -> random.nextDouble() < keep ? bit : 1 - bit;
  }

  @Override
  public RandomGenerator secureRandomness() {
    return new SecureRandom();
  }

  @Override
  public RandomGenerator seededRandomness(long seed) {
    return new SplittableRandom(seed);
  }
}
