package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * Bernoulli(exp(−γ)) for a rational γ ≥ 0, sampled exactly with integer arithmetic only
 * (Canonne, Kamath and Steinke 2020, "The Discrete Gaussian for Differential Privacy",
 * Algorithm 1).
 *
 * <p>For γ in [0, 1]: draw A_K ~ Bernoulli(γ/K) for K = 1, 2, … until the first failure; the index
 * K of that failure is odd with probability Σ_n (−γ)^n/n! = e^{−γ}. For γ &gt; 1 the draw is the
 * conjunction of ⌊γ⌋ draws of Bernoulli(e^{−1}) and one of Bernoulli(e^{−(γ−⌊γ⌋)}), stopping at the
 * first false. Guarantee: Pr[true] = e^{−γ} exactly, given uniform random bits; expected cost O(1)
 * uniform draws for every γ.
 *
 * @param gamma γ ≥ 0
 */
public record BernoulliExp(Rational gamma) {

  public BernoulliExp {
    Require.nonNull("gamma", gamma);
  }

  /** One draw: true with probability exactly e^{−γ}. */
  public boolean sample(RandomGenerator random) {
    return sample(random, gamma);
  }

  /** One draw of Bernoulli(e^{−γ}) without constructing a record. */
  public static boolean sample(RandomGenerator random, Rational gamma) {
    return sample(random, gamma.numerator(), gamma.denominator());
  }

  /** One draw of Bernoulli(e^{−n/d}) for integers n ≥ 0, d ≥ 1. */
  static boolean sample(RandomGenerator random, BigInteger n, BigInteger d) {
    if (n.bitLength() <= 62 && d.bitLength() <= 62) {
      return sample(random, n.longValue(), d.longValue());
    }
    if (n.compareTo(d) <= 0) {
      return continueFrom(random, n, d, BigInteger.ONE);
    }
    BigInteger[] qr = n.divideAndRemainder(d);
    for (BigInteger k = BigInteger.ZERO; k.compareTo(qr[0]) < 0; k = k.add(BigInteger.ONE)) {
      if (!sampleAtMostOne(random, 1, 1)) {
        return false;
      }
    }
    return continueFrom(random, qr[1], d, BigInteger.ONE);
  }

  /** One draw of Bernoulli(e^{−n/d}) for longs n ≥ 0, d ≥ 1, in long arithmetic. */
  static boolean sample(RandomGenerator random, long n, long d) {
    if (n <= d) {
      return sampleAtMostOne(random, n, d);
    }
    long whole = n / d;
    for (long k = 0; k < whole; k++) {
      if (!sampleAtMostOne(random, 1, 1)) {
        return false;
      }
    }
    return sampleAtMostOne(random, n % d, d);
  }

  /**
   * [CKS20, Algorithm 1] for γ = n/d in [0, 1]: K counts successes of Bernoulli(γ/K); the result is
   * whether the first failure has an odd index.
   */
  private static boolean sampleAtMostOne(RandomGenerator random, long n, long d) {
    if (n == 0) {
      return true;
    }
    long k = 1;
    while (true) {
      long bound;
      try {
        bound = Math.multiplyExact(d, k);
      } catch (ArithmeticException overflow) {
        return continueFrom(random, BigInteger.valueOf(n), BigInteger.valueOf(d), BigInteger.valueOf(k));
      }
      if (random.nextLong(bound) >= n) {
        return (k & 1) == 1;
      }
      k++;
    }
  }

  private static boolean continueFrom(
      RandomGenerator random, BigInteger n, BigInteger d, BigInteger start) {
    if (n.signum() == 0) {
      return true;
    }
    BigInteger k = start;
    while (UniformIntegers.bernoulli(random, n, d.multiply(k))) {
      k = k.add(BigInteger.ONE);
    }
    return k.testBit(0);
  }
}
