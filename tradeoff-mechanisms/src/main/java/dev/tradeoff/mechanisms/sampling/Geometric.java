package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * The one-sided geometric distribution Geom_p(k) = (1 − p)·p^k on k = 0, 1, 2, … with FAILURE
 * probability p = e^{−γ} (the notation of Wu et al., "Ex-post private hyperparameter tuning",
 * Section 2; its AboveThreshold uses Geom_{e^{−ε}}). Mean p/(1 − p) ≈ 1/γ for small γ.
 *
 * <p>Sampled exactly with integers only, following the core of Canonne, Kamath and Steinke 2020,
 * Algorithm 2, with γ = s/t: X = U + t·V with U uniform on {0, …, t−1} accepted with probability
 * e^{−U/t} and V ~ Geom_{e^{−1}} (counted Bernoulli(e^{−1}) successes) is Geom_{e^{−1/t}}, and
 * ⌊X/s⌋ is Geom_{e^{−s/t}}. Guarantee: the output law is exactly Geom_{e^{−γ}} for the rational γ
 * given. Correct for tiny γ (mean in the thousands or millions): no logarithm is taken, nothing
 * overflows (intermediate values are {@link BigInteger} when needed), expected cost O(1) draws.
 *
 * @param gamma γ = −log p &gt; 0
 */
public record Geometric(Rational gamma) {

  public Geometric {
    Require.nonNull("gamma", gamma);
    Require.that(gamma.signum() > 0, "gamma", "must be > 0", gamma);
  }

  /** Geom_{e^{−ε}} for a finite ε &gt; 0 given as a double (converted exactly). */
  public static Geometric withFailureProbabilityExpMinus(double epsilon) {
    Require.positive("epsilon", epsilon);
    return new Geometric(Rational.exactly(epsilon));
  }

  /**
   * One draw k ≥ 0 with probability (1 − e^{−γ}) e^{−γk}.
   *
   * @throws ArithmeticException if the draw exceeds {@link Long#MAX_VALUE} (probability
   *     e^{−γ·2^63}: impossible in practice for γ ≥ 2^−40)
   */
  public long sample(RandomGenerator random) {
    return floorOfGeometric(random, gamma.numerator(), gamma.denominator()).longValueExact();
  }

  /** log Pr[k] = log(1 − e^{−γ}) − γk, in double precision (for tests and exact analyses). */
  public double logPmf(long k) {
    if (k < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    double g = gamma.doubleValue();
    return Math.log(-Math.expm1(-g)) - g * k;
  }

  /**
   * ⌊X/s⌋ with X ~ Geom_{e^{−1/t}}: distributed as Geom_{e^{−s/t}}. [CKS20, Algorithm 2] without its
   * sign step.
   */
  static BigInteger floorOfGeometric(RandomGenerator random, BigInteger s, BigInteger t) {
    if (s.bitLength() <= 62 && t.bitLength() <= 62) {
      return floorOfGeometric(random, s.longValue(), t.longValue());
    }
    while (true) {
      BigInteger u = UniformIntegers.below(random, t);
      if (!BernoulliExp.sample(random, u, t)) {
        continue;
      }
      long v = countExpMinusOneSuccesses(random);
      return u.add(t.multiply(BigInteger.valueOf(v))).divide(s);
    }
  }

  /** The same in long arithmetic (X = U + tV in BigInteger only if it overflows). */
  static BigInteger floorOfGeometric(RandomGenerator random, long s, long t) {
    try {
      return BigInteger.valueOf(floorOfGeometricLong(random, s, t));
    } catch (BeyondLong beyond) {
      return beyond.value();
    }
  }

  /**
   * ⌊X/s⌋ for longs s, t ≥ 1: the same draws and the same value as {@link #floorOfGeometric(
   * RandomGenerator, BigInteger, BigInteger)}, as a long; a value of 2^63 or more is thrown as
   * {@link BeyondLong}.
   */
  static long floorOfGeometricLong(RandomGenerator random, long s, long t) {
    while (true) {
      long u = random.nextLong(t);
      if (!BernoulliExp.sample(random, u, t)) {
        continue;
      }
      long v = countExpMinusOneSuccesses(random);
      long tv = t * v;
      if (Math.multiplyHigh(t, v) == 0 && tv >= 0 && tv <= Long.MAX_VALUE - u) {
        return s == 1 ? u + tv : (u + tv) / s;
      }
      return BeyondLong.narrow(
          BigInteger.valueOf(t)
              .multiply(BigInteger.valueOf(v))
              .add(BigInteger.valueOf(u))
              .divide(BigInteger.valueOf(s)));
    }
  }

  /** V ~ Geom_{e^{−1}}: the number of successes of Bernoulli(e^{−1}) before the first failure. */
  private static long countExpMinusOneSuccesses(RandomGenerator random) {
    long v = 0;
    while (BernoulliExp.sample(random, 1, 1)) {
      v++;
    }
    return v;
  }
}
