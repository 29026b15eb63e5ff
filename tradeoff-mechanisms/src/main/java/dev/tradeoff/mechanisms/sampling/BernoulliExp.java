package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.Require;
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
    if (n.compareTo(d) <= 0) {
      return sampleAtMostOne(random, n, d);
    }
    BigInteger[] qr = n.divideAndRemainder(d);
    for (BigInteger k = BigInteger.ZERO; k.compareTo(qr[0]) < 0; k = k.add(BigInteger.ONE)) {
      if (!sampleAtMostOne(random, BigInteger.ONE, BigInteger.ONE)) {
        return false;
      }
    }
    return sampleAtMostOne(random, qr[1], d);
  }

  /** CKS20 Algorithm 1 for γ = n/d in [0, 1]. */
  private static boolean sampleAtMostOne(RandomGenerator random, BigInteger n, BigInteger d) {
    if (n.signum() == 0) {
      return true;
    }
    if (d.bitLength() <= 31) {
      long nl = n.longValue();
      long dl = d.longValue();
      long k = 1;
      while (k < (1L << 31) && random.nextLong(dl * k) < nl) {
        k++;
      }
      if (k < (1L << 31)) {
        return (k & 1) == 1;
      }
      // astronomically unlikely (probability < 1/(2^31)!); continue exactly in BigInteger
      return continueFrom(random, n, d, BigInteger.valueOf(k));
    }
    return continueFrom(random, n, d, BigInteger.ONE);
  }

  private static boolean continueFrom(
      RandomGenerator random, BigInteger n, BigInteger d, BigInteger start) {
    BigInteger k = start;
    while (UniformIntegers.bernoulli(random, n, d.multiply(k))) {
      k = k.add(BigInteger.ONE);
    }
    return k.testBit(0);
  }
}
