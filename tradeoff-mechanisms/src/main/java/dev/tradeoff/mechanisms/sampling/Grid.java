package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The lattice g·ℤ with a power-of-two granularity g = 2^k, on which Tradeoff's continuous-valued
 * noise lives (the snapping approach of Mironov 2012, Section 5, as used by Google's differential
 * privacy library and OpenDP).
 *
 * <p>A real input x is mapped to its nearest lattice index round(x/g) (ties to even) exactly, the
 * noise is an exact integer added to that index, and the result is mapped back to a double by a
 * fixed function of the integer alone. The released double is thus post-processing of an exactly
 * distributed integer: the set of possible outputs does not depend on the input, which defeats the
 * floating-point attacks of Mironov 2012.
 *
 * @param exponent k, the granularity is 2^k (−1074 ≤ k ≤ 1023)
 */
public record Grid(int exponent) {

  private static final double LONG_SAFE = 0x1.0p62;

  public Grid {
    Require.inClosedRange("exponent", exponent, -1074, 1023);
  }

  /**
   * The grid whose granularity is the largest power of two ≤ scale·2^−bits: fine enough that
   * snapping changes a quantity of size {@code scale} by a relative 2^−bits at most (never finer
   * than 2^−1074, the smallest double, for absurdly small scales).
   */
  public static Grid finerThan(double scale, int bits) {
    Require.positive("scale", scale);
    Require.inClosedRange("bits", bits, 0, 60);
    return new Grid(Math.max(Math.max(Math.getExponent(scale), Double.MIN_EXPONENT) - bits, -1074));
  }

  /** The granularity g = 2^k. */
  public double granularity() {
    return Math.scalb(1.0, exponent);
  }

  /** g as an exact rational (for computing grid-unit scales without rounding). */
  public Rational granularityExactly() {
    return exponent >= 0
        ? Rational.of(BigInteger.ONE.shiftLeft(exponent))
        : new Rational(BigInteger.ONE, BigInteger.ONE.shiftLeft(-exponent));
  }

  /** round(x/g), ties to even, computed exactly for every finite x. */
  public BigInteger index(double x) {
    Require.finite("x", x);
    double q = Math.scalb(x, -exponent); // exact unless it underflows below 2^-1022, then rounds to 0
    if (Math.abs(q) < LONG_SAFE) {
      return BigInteger.valueOf((long) Math.rint(q));
    }
    BigDecimal exact = new BigDecimal(x);
    BigDecimal scaled =
        exponent <= 0
            ? exact.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(-exponent)))
            : exact.multiply(new BigDecimal(BigInteger.valueOf(5).pow(exponent), exponent));
    return scaled.setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
  }

  /**
   * The double for lattice point m·g: a fixed function of m (rounded to nearest when m·g is not a
   * double, and ±{@link Double#MAX_VALUE} beyond the double range, so that a release is always
   * finite), so releasing it is post-processing of m. Indices too long for a double (x near the
   * top of the range on a fine lattice) are scaled exactly before rounding.
   */
  public double value(BigInteger m) {
    double v;
    if (m.bitLength() < Double.MAX_EXPONENT) {
      v = Math.scalb(m.doubleValue(), exponent);
    } else {
      BigDecimal exact = new BigDecimal(m);
      exact = exponent >= 0
          ? exact.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)))
          : exact.divide(new BigDecimal(BigInteger.ONE.shiftLeft(-exponent)));
      v = exact.doubleValue();
    }
    return Math.max(-Double.MAX_VALUE, Math.min(Double.MAX_VALUE, v));
  }

  /**
   * The double for lattice point m·g: the same double as {@link #value(BigInteger)} (a long has
   * fewer than 1023 bits, and {@code (double) m} rounds to nearest-even as {@link
   * BigInteger#doubleValue()} does), without a {@link BigInteger}.
   */
  public double value(long m) {
    return Math.max(-Double.MAX_VALUE, Math.min(Double.MAX_VALUE, Math.scalb((double) m, exponent)));
  }

  /**
   * The double for lattice point round(x/g) + steps, i.e. {@code value(index(x).add(steps))}: in
   * long arithmetic when |x/g| &lt; 2^62 and |steps| &lt; 2^62 (the sum then fits a long exactly,
   * and {@link #index} rounds x/g the same way).
   */
  public double valueAt(double x, long steps) {
    Require.finite("x", x);
    double q = Math.scalb(x, -exponent);
    if (Math.abs(q) < LONG_SAFE && Math.abs(steps) < 1L << 62) {
      return value((long) Math.rint(q) + steps);
    }
    return value(index(x).add(BigInteger.valueOf(steps)));
  }

  /**
   * The largest number of lattice steps by which round(x/g) and round(x′/g) can differ when
   * |x − x′| ≤ Δ: ⌊Δ/g⌋ + 1 (rounding moves each point by at most half a step).
   */
  public BigInteger indexSensitivity(double sensitivity) {
    Require.positive("sensitivity", sensitivity);
    return Rational.exactly(sensitivity).dividedBy(granularityExactly()).floor().add(BigInteger.ONE);
  }
}
