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
    return sampleBig(random).longValueExact();
  }

  /** One draw as a {@link BigInteger}, never overflowing. */
  public BigInteger sampleBig(RandomGenerator random) {
    BigInteger t = scale.numerator();
    BigInteger s = scale.denominator();
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
