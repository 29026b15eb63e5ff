package dev.tradeoff.mechanisms.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** BernoulliExp.sampleScaledDifference's long path against the Rational path it replaces. */
class ScaledDifferenceTest {

  /** Same answer and same stream position as sample(random, rate·(a − b)) through Rational. */
  private static void assertSameDraw(Rational rate, double a, double b, long seed) {
    SplittableRandom fast = new SplittableRandom(seed);
    SplittableRandom reference = new SplittableRandom(seed);
    boolean x = BernoulliExp.sampleScaledDifference(fast, rate, a, b);
    boolean y = BernoulliExp.sample(reference, rate.times(Rational.difference(a, b)));
    assertThat(x).as("rate %s, a = %s, b = %s", rate, a, b).isEqualTo(y);
    assertThat(fast.nextLong()).as("stream after rate %s, a = %s, b = %s", rate, a, b)
        .isEqualTo(reference.nextLong());
  }

  /** The long path's exponent, when it has one, is the reduced Rational exactly. */
  private static void assertSameGamma(Rational rate, double a, double b) {
    long[] fast = BernoulliExp.reducedScaledDifference(
        rate.numerator().longValue(), rate.denominator().longValue(), a, b);
    if (fast != null) {
      Rational exact = rate.times(Rational.difference(a, b));
      assertThat(new Rational(BigInteger.valueOf(fast[0]), BigInteger.valueOf(fast[1])))
          .as("rate %s, a = %s, b = %s", rate, a, b).isEqualTo(exact);
      assertThat(BigInteger.valueOf(fast[0]).gcd(BigInteger.valueOf(fast[1])))
          .isEqualTo(fast[0] == 0 ? BigInteger.valueOf(fast[1]) : BigInteger.ONE);
    }
  }

  private static double utility(SplittableRandom random) {
    return switch (random.nextInt(5)) {
      case 0 -> random.nextInt(200) - 100; // small integers, the common case
      case 1 -> (random.nextInt(2000) - 1000) / 8.0;
      case 2 -> random.nextDouble() * 10 - 5;
      case 3 -> Math.scalb(random.nextDouble(), random.nextInt(120) - 60);
      default -> 0.0;
    };
  }

  @Test
  void longPathDrawsExactlyWhatTheRationalPathDraws() {
    SplittableRandom inputs = new SplittableRandom(99);
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      double u = utility(inputs);
      double v = utility(inputs);
      double a = Math.max(u, v);
      double b = Math.min(u, v);
      Rational rate = Rational.exactly(Math.scalb(inputs.nextDouble(), inputs.nextInt(8) - 4))
          .dividedBy(Rational.exactly(1 + inputs.nextInt(7)).times(Rational.of(2, 1)));
      assertSameGamma(rate, a, b);
      assertSameDraw(rate, a, b, inputs.nextLong());
      fast += BernoulliExp.reducedScaledDifference(
          rate.numerator().longValue(), rate.denominator().longValue(), a, b) != null ? 1 : 0;
    }
    assertThat(fast).as("draws on the long path").isGreaterThan(5_000);
  }

  @Test
  void edgeCasesAgreeToo() {
    Rational[] rates = {Rational.ZERO, Rational.of(1, 2), Rational.exactly(0.1), Rational.of(3, 7),
        Rational.of((1L << 61) + 1, 3), Rational.of(1, (1L << 61) - 1)};
    double[][] pairs = {{0, 0}, {0, -0.0}, {1, 1}, {3, 0}, {0, -3}, {Double.MIN_VALUE, 0},
        {1, -Double.MIN_VALUE}, {Double.MAX_VALUE, 0}, {Double.MAX_VALUE, -Double.MAX_VALUE},
        {1e300, 1e-300}, {0x1.0p52, 1}, {1, 0x1.0p-10}, {1, 0x1.0p-9}, {-0.5, -1.5}};
    for (Rational rate : rates) {
      for (double[] pair : pairs) {
        assertSameGamma(rate, pair[0], pair[1]);
        for (long seed = 0; seed < 50; seed++) {
          assertSameDraw(rate, pair[0], pair[1], seed);
        }
      }
    }
  }

  @Test
  void refusesAnOrderOrAValueItCannotUse() {
    SplittableRandom random = new SplittableRandom(1);
    assertThatThrownBy(() -> BernoulliExp.sampleScaledDifference(random, Rational.ONE, 1, 2))
        .hasMessageContaining("a must be >= b = 2.0");
    assertThatThrownBy(() -> BernoulliExp.sampleScaledDifference(random, Rational.ONE, Double.NaN, 2))
        .hasMessageContaining("a");
  }
}
