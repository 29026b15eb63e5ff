package dev.tradeoff.mechanisms.sampling;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.binomialZ;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Exact draws with probabilities e^{−γ}: the digits they compare with, their laws, their ties. */
class HalfExponentialsTest {

  private static final MathContext DIGITS = new MathContext(160);

  /** e^{−m/2} to 160 significant digits by the Taylor series of e^{m/2} (an independent reference). */
  private static BigDecimal expMinusHalf(long m) {
    return expMinus(BigDecimal.valueOf(m).divide(BigDecimal.valueOf(2)));
  }

  /** e^{−x} to 160 significant digits for 0 ≤ x ≤ 100 by the Taylor series of e^x. */
  private static BigDecimal expMinus(BigDecimal x) {
    BigDecimal term = BigDecimal.ONE;
    BigDecimal sum = BigDecimal.ONE;
    for (int i = 1; i < 2_000; i++) {
      term = term.multiply(x, DIGITS).divide(BigDecimal.valueOf(i), DIGITS);
      sum = sum.add(term, DIGITS);
    }
    return BigDecimal.ONE.divide(sum, DIGITS);
  }

  @Test
  void digitsAreTheFloorOfTheScaledExponential() {
    for (long m = 1; m <= 120; m++) {
      BigDecimal e = expMinusHalf(m);
      for (int bits : new int[] {32, 64, 96, 160}) {
        BigInteger expected = e.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(bits)))
            .setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
        assertThat(HalfExponentials.scaledFloor(m, bits)).as("m = %d, bits = %d", m, bits).isEqualTo(expected);
      }
    }
  }

  /** A random rational γ = n/d in (0, 40], some of them tiny, with d up to 2^40. */
  private static Rational randomGamma(SplittableRandom random) {
    long d = 1 + random.nextLong(1L << (1 + random.nextInt(40)));
    long n = 1 + random.nextLong(Math.max(1, Math.min(40 * d, Long.MAX_VALUE / 2)));
    if (random.nextInt(8) == 0) {
      n = 1 + random.nextLong(3); // γ far below 1
    }
    return Rational.of(n, d);
  }

  @Test
  void digitsOfARationalExponentAreTheFloorOfTheScaledExponential() {
    SplittableRandom random = new SplittableRandom(41);
    for (int i = 0; i < 300; i++) {
      Rational gamma = randomGamma(random);
      BigDecimal e = expMinus(new BigDecimal(gamma.numerator()).divide(new BigDecimal(gamma.denominator()), DIGITS));
      for (int bits : new int[] {32, 64, 96}) {
        BigInteger expected = e.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(bits)))
            .setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
        assertThat(HalfExponentials.scaledFloor(gamma, bits)).as("γ = %s, bits = %d", gamma, bits).isEqualTo(expected);
      }
    }
  }

  /**
   * The double certificate of the first word: whenever it names a word, that word is the exact
   * ⌊e^{−γ}·2^32⌋, for the double nearest γ and for doubles off by a relative 2^−49 either way (the
   * largest error the callers may bring); it declines NaN, zero and subnormal approximations, and
   * it names a word for nearly all γ.
   */
  @Test
  void theDoubleCertificateNamesOnlyTheExactFirstWord() {
    SplittableRandom random = new SplittableRandom(43);
    int named = 0;
    int tries = 20_000;
    for (int i = 0; i < tries; i++) {
      Rational gamma = randomGamma(random);
      long exact = HalfExponentials.scaledFloor(gamma, 32).longValueExact();
      double nearest = gamma.doubleValue();
      for (double approx : new double[] {nearest, nearest * (1 + 0x1.0p-49), nearest * (1 - 0x1.0p-49)}) {
        long word = HalfExponentials.firstWord(approx);
        if (word >= 0) {
          assertThat(word).as("γ = %s, approx = %s", gamma, approx).isEqualTo(exact);
        }
      }
      named += HalfExponentials.firstWord(nearest) >= 0 ? 1 : 0;
    }
    assertThat(named).isGreaterThan(tries - 20);
    assertThat(HalfExponentials.firstWord(Double.NaN)).isEqualTo(-1);
    assertThat(HalfExponentials.firstWord(0)).isEqualTo(-1);
    assertThat(HalfExponentials.firstWord(Double.MIN_VALUE)).isEqualTo(-1);
    assertThat(HalfExponentials.firstWord(33)).isZero();
  }

  @Test
  void bernoulliOfARationalExponentHasFrequencyExpMinusGamma() {
    SplittableRandom random = new SplittableRandom(47);
    int n = 200_000;
    for (Rational gamma : new Rational[] {Rational.of(1, 3), Rational.of(7, 10), Rational.of(5, 2),
        Rational.of(1, 1L << 40), Rational.of(123_456_789, 10_000_000)}) {
      long hits = 0;
      for (int i = 0; i < n; i++) {
        hits += HalfExponentials.bernoulli(random, gamma.doubleValue(), () -> gamma) ? 1 : 0;
      }
      assertThat(binomialZ(hits, n, Math.exp(-gamma.doubleValue()))).as("γ = %s", gamma).isLessThan(4.5);
    }
  }

  /**
   * A first word equal to ⌊e^{−γ}·2^32⌋ is a tie for a rational γ too: the next word decides against
   * the next 32 digits; without a certificate (a NaN approximation) the exact digits give the same
   * answers from the same words.
   */
  @Test
  void aTieWithARationalExponentIsDecidedByTheNextDigits() {
    for (Rational gamma : new Rational[] {Rational.of(1, 3), Rational.of(22, 7), Rational.of(1, 1000)}) {
      long first = HalfExponentials.scaledFloor(gamma, 32).longValue();
      long second = HalfExponentials.scaledFloor(gamma, 64).longValue() & 0xffffffffL;
      assertThat(second).isBetween(1L, 0xfffffffeL);
      for (double approx : new double[] {gamma.doubleValue(), Double.NaN}) {
        assertThat(HalfExponentials.bernoulli(words(first, second - 1), approx, () -> gamma)).isTrue();
        assertThat(HalfExponentials.bernoulli(words(first, second + 1), approx, () -> gamma)).isFalse();
        assertThat(HalfExponentials.bernoulli(words(first - 1), approx, () -> gamma)).isTrue();
        assertThat(HalfExponentials.bernoulli(words(first + 1), approx, () -> gamma)).isFalse();
      }
    }
  }

  @Test
  void bernoulliFrequenciesAreExpMinusHalfM() {
    SplittableRandom random = new SplittableRandom(12);
    int n = 200_000;
    assertThat(HalfExponentials.bernoulli(random, 0)).isTrue();
    for (long m : new long[] {1, 2, 3, 5, 9}) {
      long hits = 0;
      for (int i = 0; i < n; i++) {
        hits += HalfExponentials.bernoulli(random, m) ? 1 : 0;
      }
      assertThat(binomialZ(hits, n, Math.exp(-m / 2.0))).as("m = %d", m).isLessThan(4.5);
    }
  }

  @Test
  void geometricFitsItsLaw() {
    SplittableRandom random = new SplittableRandom(13);
    int n = 200_000;
    long[] counts = new long[40];
    for (int i = 0; i < n; i++) {
      counts[(int) Math.min(39, HalfExponentials.geometric(random))]++;
    }
    double[] probabilities = new double[40];
    for (int k = 0; k < 39; k++) {
      probabilities[k] = (1 - Math.exp(-0.5)) * Math.exp(-k / 2.0);
    }
    probabilities[39] = Math.exp(-39 / 2.0);
    assertThat(chiSquarePValue(counts, probabilities)).isGreaterThan(ALPHA);
  }

  /** A generator whose nextInt() returns the given words, in order. */
  private static RandomGenerator words(long... values) {
    return new RandomGenerator() {
      private int next;

      @Override
      public long nextLong() {
        throw new UnsupportedOperationException("only 32-bit words are expected");
      }

      @Override
      public int nextInt() {
        return (int) values[next++];
      }
    };
  }

  /**
   * A first word equal to the table's ⌊e^{−m/2}·2^32⌋ is a tie: the next word of U decides against
   * the next 32 digits, for the Bernoulli draw and, for the same U, in the geometric draw's scan.
   */
  @Test
  void aTieIsDecidedByTheNextWordAgainstTheNextDigits() {
    for (long m : new long[] {1, 2, 7, 44}) {
      long first = HalfExponentials.scaledFloor(m, 32).longValue();
      long second = HalfExponentials.scaledFloor(m, 64).longValue() & 0xffffffffL;
      assertThat(second).isBetween(1L, 0xfffffffeL);
      assertThat(HalfExponentials.bernoulli(words(first, second - 1), m)).isTrue();
      assertThat(HalfExponentials.bernoulli(words(first, second + 1), m)).isFalse();
    }
    for (long m : new long[] {45, 60}) { // below 2^−32: the first word must be 0 to tie
      long second = HalfExponentials.scaledFloor(m, 64).longValue() & 0xffffffffL;
      assertThat(HalfExponentials.bernoulli(words(0, second - 1), m)).isEqualTo(second > 0);
      assertThat(HalfExponentials.bernoulli(words(1), m)).isFalse();
    }
    long first = HalfExponentials.scaledFloor(1, 32).longValue();
    long second = HalfExponentials.scaledFloor(1, 64).longValue() & 0xffffffffL;
    // U just below e^{−1/2}: K ≥ 1, and U > e^{−1} from the first word: K = 1
    assertThat(HalfExponentials.geometric(words(first, second - 1))).isEqualTo(1);
    // U just above e^{−1/2}: K = 0
    assertThat(HalfExponentials.geometric(words(first, second + 1))).isZero();
    // a tie at v = 3 after passing v = 1, 2 on the first word
    long third = HalfExponentials.scaledFloor(3, 32).longValue();
    long thirdNext = HalfExponentials.scaledFloor(3, 64).longValue() & 0xffffffffL;
    assertThat(HalfExponentials.geometric(words(third, thirdNext - 1))).isEqualTo(3);
    assertThat(HalfExponentials.geometric(words(third, thirdNext + 1))).isEqualTo(2);
  }
}
