package dev.tradeoff.mechanisms.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RationalTest {

  @Test
  void convertsADoubleWithoutRounding() {
    Rational tenth = Rational.exactly(0.1);
    assertThat(tenth.numerator()).isEqualTo(BigInteger.valueOf(3602879701896397L));
    assertThat(tenth.denominator()).isEqualTo(BigInteger.ONE.shiftLeft(55));
    assertThat(Rational.exactly(Double.MIN_VALUE))
        .isEqualTo(new Rational(BigInteger.ONE, BigInteger.ONE.shiftLeft(1074)));
    assertThat(Rational.exactly(3.0)).isEqualTo(Rational.of(3, 1));
    assertThat(Rational.exactly(0)).isEqualTo(Rational.ZERO);
  }

  @Test
  void exactConversionAgreesWithBigDecimalOnRandomDoubles() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      double x = Double.longBitsToDouble(random.nextLong() >>> 1); // any non-negative double
      if (!Double.isFinite(x)) {
        continue;
      }
      Rational r = Rational.exactly(x);
      BigDecimal exact = new BigDecimal(x);
      assertThat(new BigDecimal(r.numerator()))
          .isEqualByComparingTo(exact.multiply(new BigDecimal(r.denominator())));
    }
  }

  @Test
  void differenceOfDoublesIsExact() {
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 2000; i++) {
      double x = Double.longBitsToDouble(random.nextLong());
      double y = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(x) || !Double.isFinite(y)) {
        continue;
      }
      double a = Math.max(x, y);
      double b = Math.min(x, y);
      Rational d = Rational.difference(a, b);
      BigDecimal exact = new BigDecimal(a).subtract(new BigDecimal(b));
      assertThat(new BigDecimal(d.numerator()))
          .isEqualByComparingTo(exact.multiply(new BigDecimal(d.denominator())));
    }
    assertThat(Rational.difference(1, -0.5)).isEqualTo(Rational.of(3, 2));
    assertThat(Rational.difference(-0.0, 0.0)).isEqualTo(Rational.ZERO);
    assertThatThrownBy(() -> Rational.difference(1, 2))
        .hasMessage("a must be >= b = 2.0, but was 1.0");
  }

  @Test
  void arithmeticIsExactAndReduced() {
    Rational a = Rational.of(1, 3);
    Rational b = Rational.of(1, 6);
    assertThat(a.plus(b)).isEqualTo(Rational.of(1, 2));
    assertThat(a.minus(b)).isEqualTo(Rational.of(1, 6));
    assertThat(a.times(b)).isEqualTo(Rational.of(1, 18));
    assertThat(a.dividedBy(b)).isEqualTo(Rational.of(2, 1));
    assertThat(Rational.of(7, 2).floor()).isEqualTo(BigInteger.valueOf(3));
    assertThat(a.compareTo(b)).isPositive();
  }

  @Test
  void rejectsBadValues() {
    assertThatThrownBy(() -> Rational.exactly(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("value must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> Rational.exactly(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Rational.of(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("denominator must be >= 1, but was 0");
    assertThatThrownBy(() -> Rational.of(1, 3).minus(Rational.of(1, 2)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
