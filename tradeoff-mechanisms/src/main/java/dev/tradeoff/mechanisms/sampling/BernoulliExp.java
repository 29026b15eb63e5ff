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

  private static final long LONG_LIMIT = 1L << 62;

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

  /**
   * One draw of Bernoulli(e^{−γ}) for γ = rate·(a − b), exactly, with finite doubles a ≥ b (the
   * exponential mechanism's γ_r = ε(u* − u_r)/(cΔ)). The same draw as {@code sample(random,
   * rate.times(Rational.difference(a, b)))}, from the same bits, without {@link BigInteger}s when
   * the numbers allow.
   *
   * <p>Why the long path is exact: a and b are m_a·2^{e_a} and m_b·2^{e_b} with |m| &lt; 2^53. With
   * e = min(e_a, e_b) and shifts of at most 9, m_a·2^{e_a−e} − m_b·2^{e_b−e} is an exact long of
   * magnitude below 2^63 (both terms are below 2^62); after removing its z trailing zeros it is an
   * odd n with a − b = n·2^{e+z}. Then γ = r·n·2^{e+z}/s for rate r/s in lowest terms: the product
   * r·n is formed only when {@link Math#multiplyHigh} shows it below 2^62, and the shift by e + z
   * only when it keeps the shifted number below 2^62. The pair is then put in lowest terms (common
   * twos, then a gcd unless the denominator is a power of two) — the unique reduced form that
   * {@link Rational} holds — so {@link #sample(RandomGenerator, BigInteger, BigInteger)} would pass
   * the very same two longs to the very same long routine. Any number that would reach 2^62 sends
   * the draw through {@link Rational} instead; either way no randomness is drawn before γ is known.
   *
   * @param rate r/s ≥ 0
   * @param a finite, ≥ b
   * @param b finite
   */
  public static boolean sampleScaledDifference(RandomGenerator random, Rational rate, double a, double b) {
    Require.finite("a", a);
    Require.finite("b", b);
    if (!(a >= b)) { // the message (and the boxed a) built only to fail: this runs per proposal
      Require.that(false, "a", "must be >= b = " + b, a);
    }
    BigInteger r = rate.numerator();
    BigInteger s = rate.denominator();
    if (r.bitLength() < 62 && s.bitLength() < 62) {
      long[] gamma = reducedScaledDifference(r.longValue(), s.longValue(), a, b);
      if (gamma != null) {
        return sample(random, gamma[0], gamma[1]);
      }
    }
    return sample(random, rate.times(Rational.difference(a, b)));
  }

  /**
   * {r·(a − b)/s} in lowest terms as {numerator, denominator}, both below 2^62, or null when a
   * number on the way would reach 2^62 (see {@link #sampleScaledDifference}).
   */
  static long[] reducedScaledDifference(long r, long s, double a, double b) {
    long ma = Rational.signedMantissa(a);
    long mb = Rational.signedMantissa(b);
    int ea = ma == 0 ? Rational.binaryExponent(b) : Rational.binaryExponent(a);
    int eb = mb == 0 ? ea : Rational.binaryExponent(b);
    int e = Math.min(ea, eb);
    if (ea - e > 9 || eb - e > 9) {
      return null;
    }
    long n = (ma << (ea - e)) - (mb << (eb - e)); // exact, in [0, 2^63)
    if (n == 0 || r == 0) {
      return new long[] {0, 1};
    }
    int zeros = Long.numberOfTrailingZeros(n);
    n >>= zeros;
    e += zeros;
    if (Math.multiplyHigh(r, n) != 0 || r * n < 0 || r * n >= LONG_LIMIT) {
      return null;
    }
    long numerator = r * n;
    long denominator = s;
    if (e >= 0) {
      if (e >= 62 || numerator >= LONG_LIMIT >>> e) {
        return null;
      }
      numerator <<= e;
    } else {
      if (-e >= 62 || denominator >= LONG_LIMIT >>> -e) {
        return null;
      }
      denominator <<= -e;
    }
    int twos = Math.min(Long.numberOfTrailingZeros(numerator), Long.numberOfTrailingZeros(denominator));
    numerator >>= twos;
    denominator >>= twos;
    if (Long.bitCount(denominator) != 1) {
      long g = gcd(numerator, denominator);
      numerator /= g;
      denominator /= g;
    }
    return new long[] {numerator, denominator};
  }

  private static long gcd(long x, long y) {
    while (y != 0) {
      long t = x % y;
      x = y;
      y = t;
    }
    return x;
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
