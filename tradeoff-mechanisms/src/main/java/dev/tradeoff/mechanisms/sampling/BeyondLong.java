package dev.tradeoff.mechanisms.sampling;

import java.math.BigInteger;

/**
 * The rare draw of a long-arithmetic sampling path that does not fit a long, carried to a caller
 * that can hold it, so that the long paths never round, clip or redraw a value (which would change
 * the law). Without a stack trace: it is a second return channel, not an error.
 */
final class BeyondLong extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient BigInteger value;

  BeyondLong(BigInteger value) {
    super(null, null, false, false);
    this.value = value;
  }

  /** The exact draw, outside the long range. */
  BigInteger value() {
    return value;
  }

  /** {@code value} as a long, or thrown as a {@code BeyondLong} when it does not fit. */
  static long narrow(BigInteger value) {
    if (value.bitLength() < 64) {
      return value.longValue();
    }
    throw new BeyondLong(value);
  }
}
