package dev.tradeoff.mechanisms.sampling;

import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * Exactly uniform integers: the one primitive every exact sampler reduces to. Uniformity is exact
 * given a generator whose {@code nextLong()} bits are uniform; no floating point is involved.
 */
public final class UniformIntegers {

  private UniformIntegers() {}

  /**
   * A uniform integer in {0, …, bound − 1}, by rejection (never by reducing modulo the bound, which
   * would bias small values).
   *
   * @param bound ≥ 1
   */
  public static BigInteger below(RandomGenerator random, BigInteger bound) {
    int bits = bound.bitLength();
    if (bits <= 62) {
      return BigInteger.valueOf(random.nextLong(bound.longValue()));
    }
    while (true) {
      BigInteger candidate = randomBits(random, bits);
      if (candidate.compareTo(bound) < 0) {
        return candidate;
      }
    }
  }

  /** A uniform integer in {0, …, 2^bits − 1}. */
  static BigInteger randomBits(RandomGenerator random, int bits) {
    byte[] bytes = new byte[(bits + 7) / 8 + 1]; // leading zero byte keeps the value non-negative
    int filled = 1;
    while (filled < bytes.length) {
      long word = random.nextLong();
      for (int k = 0; k < 8 && filled < bytes.length; k++, word >>>= 8) {
        bytes[filled++] = (byte) word;
      }
    }
    int excess = (bytes.length - 1) * 8 - bits;
    bytes[1] &= (byte) (0xff >>> excess);
    return new BigInteger(bytes);
  }

  /**
   * True with probability exactly numerator/denominator.
   *
   * @param numerator 0 ≤ numerator ≤ denominator
   * @param denominator ≥ 1
   */
  static boolean bernoulli(RandomGenerator random, BigInteger numerator, BigInteger denominator) {
    if (denominator.bitLength() <= 62) {
      return random.nextLong(denominator.longValue()) < numerator.longValue();
    }
    return below(random, denominator).compareTo(numerator) < 0;
  }
}
