package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;

/**
 * A non-negative rational number p/q held exactly in {@link BigInteger}s: the parameter type of the
 * exact samplers, which never round a privacy parameter through floating point.
 *
 * <p>Every finite double is a dyadic rational m·2^e, so {@link #exactly(double)} converts a double
 * without any rounding: a sampler parameterised by {@code Rational.exactly(epsilon)} realises the
 * distribution for exactly the double the caller holds.
 *
 * @param numerator p ≥ 0
 * @param denominator q ≥ 1
 */
public record Rational(BigInteger numerator, BigInteger denominator) implements Comparable<Rational> {

  /** Zero. */
  public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);

  /** One. */
  public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

  public Rational {
    Require.nonNull("numerator", numerator);
    Require.nonNull("denominator", denominator);
    Require.that(numerator.signum() >= 0, "numerator", "must be >= 0", numerator);
    Require.that(denominator.signum() > 0, "denominator", "must be >= 1", denominator);
    if (numerator.signum() == 0) {
      denominator = BigInteger.ONE;
    } else {
      // strip common factors of two first: most parameters are dyadic (doubles), and then the
      // expensive gcd is unnecessary
      int twos = Math.min(numerator.getLowestSetBit(), denominator.getLowestSetBit());
      if (twos > 0) {
        numerator = numerator.shiftRight(twos);
        denominator = denominator.shiftRight(twos);
      }
      boolean dyadic = denominator.bitCount() == 1;
      if (!dyadic) {
        BigInteger g = numerator.gcd(denominator);
        if (!g.equals(BigInteger.ONE)) {
          numerator = numerator.divide(g);
          denominator = denominator.divide(g);
        }
      }
    }
  }

  /** p/q for longs p ≥ 0, q ≥ 1. */
  public static Rational of(long numerator, long denominator) {
    return new Rational(BigInteger.valueOf(numerator), BigInteger.valueOf(denominator));
  }

  /** The integer n ≥ 0. */
  public static Rational of(BigInteger n) {
    return new Rational(n, BigInteger.ONE);
  }

  /**
   * The exact value of a finite, non-negative double (no rounding: a double is m·2^e).
   *
   * @throws IllegalArgumentException for NaN, infinities and negative values
   */
  public static Rational exactly(double value) {
    Require.nonNegative("value", value);
    if (value == 0) {
      return ZERO;
    }
    long bits = Double.doubleToLongBits(value);
    int exponent = (int) ((bits >> 52) & 0x7ff);
    long mantissa = bits & 0xfffffffffffffL;
    if (exponent == 0) {
      exponent = 1; // subnormal
    } else {
      mantissa |= 1L << 52;
    }
    int power = exponent - 1075; // value = mantissa * 2^power
    BigInteger m = BigInteger.valueOf(mantissa);
    return power >= 0
        ? new Rational(m.shiftLeft(power), BigInteger.ONE)
        : new Rational(m, BigInteger.ONE.shiftLeft(-power));
  }

  /**
   * a − b for finite doubles a ≥ b, exactly (the difference of two doubles is a dyadic rational,
   * though often not a double).
   */
  public static Rational difference(double a, double b) {
    Require.finite("a", a);
    Require.finite("b", b);
    Require.that(a >= b, "a", "must be >= b = " + b, a);
    int ea = binaryExponent(a);
    int eb = binaryExponent(b);
    int e = Math.min(ea, eb);
    BigInteger n =
        BigInteger.valueOf(signedMantissa(a))
            .shiftLeft(ea - e)
            .subtract(BigInteger.valueOf(signedMantissa(b)).shiftLeft(eb - e));
    return e >= 0 ? of(n.shiftLeft(e)) : new Rational(n, BigInteger.ONE.shiftLeft(-e));
  }

  /** m with x = m·2^e, e = {@link #binaryExponent}; |m| < 2^53. */
  static long signedMantissa(double x) {
    long bits = Double.doubleToRawLongBits(x);
    long mantissa = bits & 0xfffffffffffffL;
    if (((bits >> 52) & 0x7ff) != 0) {
      mantissa |= 1L << 52;
    }
    return bits < 0 ? -mantissa : mantissa;
  }

  /** e with x = m·2^e, m = {@link #signedMantissa}. */
  static int binaryExponent(double x) {
    int field = (int) ((Double.doubleToRawLongBits(x) >> 52) & 0x7ff);
    return Math.max(field, 1) - 1075;
  }

  /** this + other. */
  public Rational plus(Rational other) {
    return new Rational(
        numerator.multiply(other.denominator).add(other.numerator.multiply(denominator)),
        denominator.multiply(other.denominator));
  }

  /** this − other; requires this ≥ other. */
  public Rational minus(Rational other) {
    BigInteger n =
        numerator.multiply(other.denominator).subtract(other.numerator.multiply(denominator));
    Require.that(n.signum() >= 0, "difference", "must be >= 0", this + " - " + other);
    return new Rational(n, denominator.multiply(other.denominator));
  }

  /** this · other. */
  public Rational times(Rational other) {
    return new Rational(numerator.multiply(other.numerator), denominator.multiply(other.denominator));
  }

  /** this / other; requires other &gt; 0. */
  public Rational dividedBy(Rational other) {
    Require.that(other.signum() > 0, "divisor", "must be > 0", other);
    return new Rational(numerator.multiply(other.denominator), denominator.multiply(other.numerator));
  }

  /** ⌊this⌋. */
  public BigInteger floor() {
    return numerator.divide(denominator);
  }

  /** ⌈this⌉. */
  public BigInteger ceil() {
    BigInteger[] qr = numerator.divideAndRemainder(denominator);
    return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
  }

  /** The sign: 0 or 1. */
  public int signum() {
    return numerator.signum();
  }

  /** The nearest double (correctly rounded by {@link java.math.BigDecimal}); for display only. */
  public double doubleValue() {
    return new java.math.BigDecimal(numerator)
        .divide(new java.math.BigDecimal(denominator), java.math.MathContext.DECIMAL64)
        .doubleValue();
  }

  @Override
  public int compareTo(Rational other) {
    return numerator.multiply(other.denominator).compareTo(other.numerator.multiply(denominator));
  }

  @Override
  public String toString() {
    return numerator + "/" + denominator;
  }
}
