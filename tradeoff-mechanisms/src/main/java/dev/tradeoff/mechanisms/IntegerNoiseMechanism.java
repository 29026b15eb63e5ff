package dev.tradeoff.mechanisms;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * A mechanism that adds integer noise from an exact sampler to an integer query, f(D) + Y. The
 * primitive {@link #release(long, RandomGenerator)} is the one to call; the boxed form serves the
 * generic {@link Mechanism} interface (auditors, pipelines).
 */
public interface IntegerNoiseMechanism extends Mechanism<Long, Long> {

  /**
   * f(D) + Y for one integer-valued query. The release is always a long: a sum beyond the long
   * range is released as {@link Long#MAX_VALUE} or {@link Long#MIN_VALUE} (clamping is
   * post-processing, so the guarantee is unchanged; failing instead would tell the caller that the
   * sum overflowed, which depends on f(D)).
   */
  long release(long value, RandomGenerator random);

  /** value + noise clamped to the long range (in long arithmetic when the noise is a long). */
  static long saturatedSum(long value, BigInteger noise) {
    if (noise.bitLength() < Long.SIZE) {
      long y = noise.longValue();
      long sum = value + y;
      // the sum overflowed exactly when it has the sign of neither term
      if (((value ^ sum) & (y ^ sum)) < 0) {
        return y > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
      }
      return sum;
    }
    BigInteger sum = BigInteger.valueOf(value).add(noise);
    if (sum.bitLength() < Long.SIZE) {
      return sum.longValue();
    }
    return sum.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  @Override
  default Long release(Long value, RandomGenerator random) {
    Require.nonNull("value", value);
    return release(value.longValue(), random);
  }
}
