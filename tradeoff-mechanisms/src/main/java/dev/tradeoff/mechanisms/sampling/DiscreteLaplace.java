package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * The discrete Laplace (two-sided geometric) distribution on the integers, Pr[Y = y] =
 * (e^{1/b} − 1)/(e^{1/b} + 1) · e^{−|y|/b}, with rational scale b = t/s (Canonne, Kamath and
 * Steinke 2020, Algorithm 2).
 *
 * <p>Y = ±Geom_{e^{−1/b}} with a fair sign, rejecting the negative zero so that 0 is not counted
 * twice. Guarantee: the output law is exactly the discrete Laplace with the given rational scale;
 * integer arithmetic only, expected O(1) draws. Adding it to an integer query of sensitivity Δ is
 * (Δ/b)-DP exactly.
 *
 * @param scale b &gt; 0
 */
public record DiscreteLaplace(Rational scale) {

  public DiscreteLaplace {
    Require.nonNull("scale", scale);
    Require.that(scale.signum() > 0, "scale", "must be > 0", scale);
  }

  /** The discrete Laplace with a finite scale b &gt; 0 given as a double (converted exactly). */
  public static DiscreteLaplace withScale(double scale) {
    Require.positive("scale", scale);
    return new DiscreteLaplace(Rational.exactly(scale));
  }

  /**
   * One draw.
   *
   * @throws ArithmeticException if |y| exceeds {@link Long#MAX_VALUE} (probability e^{−2^63/b})
   */
  public long sample(RandomGenerator random) {
    try {
      return sampleLong(random);
    } catch (BeyondLong beyond) {
      throw new ArithmeticException("discrete Laplace draw beyond the long range: " + beyond.value());
    }
  }

  /** One draw as a {@link BigInteger}, never overflowing. */
  public BigInteger sampleBig(RandomGenerator random) {
    try {
      return BigInteger.valueOf(sampleLong(random));
    } catch (BeyondLong beyond) {
      return beyond.value();
    }
  }

  /**
   * One draw as a long, a draw beyond the long range thrown as {@link BeyondLong}: the same draws
   * and value as the {@link BigInteger} loop, in long arithmetic when b = t/s has t, s &lt; 2^62
   * ({@link Geometric#floorOfGeometricLong}).
   */
  long sampleLong(RandomGenerator random) {
    BigInteger t = scale.numerator();
    BigInteger s = scale.denominator();
    if (t.bitLength() > 62 || s.bitLength() > 62) {
      return BeyondLong.narrow(sampleBigInteger(random, s, t));
    }
    long tl = t.longValue();
    long sl = s.longValue();
    while (true) {
      long y;
      try {
        y = Geometric.floorOfGeometricLong(random, sl, tl);
      } catch (BeyondLong beyond) {
        boolean negative = random.nextBoolean(); // the sign, as in the loop below
        throw new BeyondLong(negative ? beyond.value().negate() : beyond.value());
      }
      boolean negative = random.nextBoolean();
      if (negative && y == 0) {
        continue;
      }
      return negative ? -y : y;
    }
  }

  /** [CKS20, Algorithm 2] in {@link BigInteger} arithmetic. */
  static BigInteger sampleBigInteger(RandomGenerator random, BigInteger s, BigInteger t) {
    while (true) {
      BigInteger y = Geometric.floorOfGeometric(random, s, t);
      boolean negative = random.nextBoolean();
      if (negative && y.signum() == 0) {
        continue;
      }
      return negative ? y.negate() : y;
    }
  }

  /** log Pr[Y = y] in double precision (for tests and analyses). */
  public double logPmf(long y) {
    double rate = 1 / scale.doubleValue();
    // (e^r − 1)/(e^r + 1) = tanh(r/2)
    return Math.log(Math.tanh(rate / 2)) - rate * Math.abs((double) y);
  }
}
