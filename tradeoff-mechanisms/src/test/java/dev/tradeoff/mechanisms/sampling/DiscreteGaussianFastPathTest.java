package dev.tradeoff.mechanisms.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The long paths of the discrete Laplace and Gaussian samplers against their BigInteger paths. */
class DiscreteGaussianFastPathTest {

  /** A discrete Gaussian's rounds in longs and in BigIntegers from the same stream: same draws. */
  private static void assertSameDraws(DiscreteGaussian gaussian, long seed, int draws) {
    SplittableRandom fast = new SplittableRandom(seed);
    SplittableRandom reference = new SplittableRandom(seed);
    for (int i = 0; i < draws; i++) {
      long x;
      long y;
      try {
        x = gaussian.draw(fast, true);
        y = gaussian.draw(reference, false);
      } catch (BeyondLong beyond) {
        continue; // compared below through sampleBig
      }
      assertThat(x).as("%s, seed %d, draw %d", gaussian, seed, i).isEqualTo(y);
    }
    assertThat(fast.nextLong()).as("stream after %s, seed %d", gaussian, seed).isEqualTo(reference.nextLong());
  }

  @Test
  void longRoundsDrawExactlyWhatBigIntegerRoundsDraw() {
    SplittableRandom inputs = new SplittableRandom(2024);
    for (int i = 0; i < 2_000; i++) {
      long p = 1 + inputs.nextLong(1L << (1 + inputs.nextInt(61)));
      long q = 1 + inputs.nextLong(1L << (1 + inputs.nextInt(20)));
      Rational sigma = new Rational(BigInteger.valueOf(p), BigInteger.valueOf(q));
      assertSameDraws(new DiscreteGaussian(sigma.times(sigma)), inputs.nextLong(), 20);
    }
  }

  /**
   * Where k·p, q·i or the coin bound 2(k+1)p·m reach 2^62 the long round hands over to BigIntegers
   * mid-round: σ just below 2^61 (the longest long path), σ = 2^60 + 1 (the bound 2(k+1)p·m passes
   * 2^62 at m = 2 for k = 0 and at once for k ≥ 1), a huge p over a huge q, and tiny σ.
   */
  @Test
  void edgeCasesAgreeToo() {
    long[][] sigmas = {
      {(1L << 61) - 1, 1}, {(1L << 60) + 1, 1}, {(1L << 59) + 3, 1}, {(1L << 61) - 1, (1L << 61) - 3},
      {(1L << 40) + 1, (1L << 20) - 1}, {1, 1}, {1, 7}, {3, 2}, {7, 1L << 40}
    };
    for (long[] s : sigmas) {
      Rational sigma = new Rational(BigInteger.valueOf(s[0]), BigInteger.valueOf(s[1]));
      for (long seed = 0; seed < 100; seed++) {
        assertSameDraws(new DiscreteGaussian(sigma.times(sigma)), seed, 10);
      }
    }
  }

  /**
   * Whole draws: the discrete Laplace's long path against its BigInteger loop, and the discrete
   * Gaussian's public draw against its rounds in BigIntegers, from the same streams.
   */
  @Test
  void wholeDrawsMatchTheirBigIntegerTranscriptions() {
    SplittableRandom inputs = new SplittableRandom(31);
    for (int i = 0; i < 3_000; i++) {
      long p = 1 + inputs.nextLong(1L << (1 + inputs.nextInt(61)));
      long q = 1 + inputs.nextLong(1L << (1 + inputs.nextInt(20)));
      BigInteger bp = BigInteger.valueOf(p);
      BigInteger bq = BigInteger.valueOf(q);
      long seed = inputs.nextLong();

      DiscreteLaplace laplace = new DiscreteLaplace(new Rational(bp, bq));
      SplittableRandom fast = new SplittableRandom(seed);
      SplittableRandom reference = new SplittableRandom(seed);
      Rational scale = laplace.scale();
      assertThat(laplace.sampleBig(fast))
          .isEqualTo(DiscreteLaplace.sampleBigInteger(reference, scale.denominator(), scale.numerator()));
      assertThat(fast.nextLong()).isEqualTo(reference.nextLong());

      Rational sigma = new Rational(bp, bq);
      DiscreteGaussian gaussian = new DiscreteGaussian(sigma.times(sigma));
      fast = new SplittableRandom(seed);
      reference = new SplittableRandom(seed);
      BigInteger expected;
      try {
        expected = BigInteger.valueOf(gaussian.draw(reference, false));
      } catch (BeyondLong beyond) {
        expected = beyond.value();
      }
      assertThat(gaussian.sampleBig(fast)).as("sigma = %s", sigma).isEqualTo(expected);
      assertThat(fast.nextLong()).isEqualTo(reference.nextLong());
    }
  }

  /**
   * A discrete Laplace of scale 2^61 + 1 leaves the long range in about 2% of draws (X = U + tV
   * needs V ≥ 4): those draws come back exact through BeyondLong, with the same stream position as
   * the BigInteger loop, and the lattice sum takes the same value.
   */
  @Test
  void drawsBeyondTheLongRangeComeBackExactly() {
    BigInteger t = BigInteger.ONE.shiftLeft(61).add(BigInteger.ONE);
    DiscreteLaplace laplace = new DiscreteLaplace(Rational.of(t));
    Grid grid = new Grid(-3);
    int beyond = 0;
    for (long seed = 0; seed < 2_000; seed++) {
      SplittableRandom fast = new SplittableRandom(seed);
      SplittableRandom reference = new SplittableRandom(seed);
      BigInteger y = laplace.sampleBig(fast);
      assertThat(y).isEqualTo(DiscreteLaplace.sampleBigInteger(reference, BigInteger.ONE, t));
      assertThat(fast.nextLong()).isEqualTo(reference.nextLong());
      beyond += y.bitLength() >= 64 ? 1 : 0;
      SplittableRandom snapped = new SplittableRandom(seed);
      assertThat(new SnappedLaplace(grid, Rational.of(t)).addTo(snapped, 2.5))
          .isEqualTo(grid.value(grid.index(2.5).add(y)));
    }
    assertThat(beyond).isGreaterThan(10);
  }

  /** Grid.valueAt in longs is value(index(x) + steps) in BigInteger, at the edges of the long path. */
  @Test
  void latticeSumsInLongsMatchBigIntegerSums() {
    SplittableRandom random = new SplittableRandom(8);
    long[] steps = {0, 1, -1, (1L << 62) - 1, -(1L << 62) + 1, 1L << 62, Long.MAX_VALUE, -Long.MAX_VALUE};
    double[] xs = {0, -0.0, 0.5, 1.5, -2.5, 0x1.0p61, -0x1.0p61, 0x1.fffffffffffffp61, 1e300, -1e300};
    for (int exponent : new int[] {-1074, -40, -3, 0, 5, 1000}) {
      Grid grid = new Grid(exponent);
      for (int i = 0; i < 2_000; i++) {
        int scale = Math.min(1000, random.nextInt(130) - 65 + exponent);
        double x = i < xs.length ? xs[i] : Math.scalb(random.nextDouble() - 0.5, scale);
        long step = i < steps.length ? steps[i] : random.nextLong() >> random.nextInt(64);
        assertThat(grid.valueAt(x, step))
            .as("x = %s, steps = %d, g = 2^%d", x, step, exponent)
            .isEqualTo(grid.value(grid.index(x).add(BigInteger.valueOf(step))));
      }
    }
  }

  /** σ = 2^42 + 3 (a lattice Gaussian's size): mean 0 and variance σ² within 5 standard errors. */
  @Test
  void aLatticeSizedSigmaHasTheRightMoments() {
    double sigma = 0x1.0p42 + 3;
    DiscreteGaussian dg = DiscreteGaussian.withSigma(sigma);
    SplittableRandom random = new SplittableRandom(5);
    int n = 100_000;
    double sum = 0;
    double sumSquares = 0;
    double sumFourth = 0;
    for (int i = 0; i < n; i++) {
      double z = dg.sample(random) / sigma;
      sum += z;
      sumSquares += z * z;
      sumFourth += z * z * z * z;
    }
    assertThat(Math.abs(sum / n)).isLessThan(5 / Math.sqrt(n));
    // Var(Z²) = 2 for a Gaussian
    assertThat(Math.abs(sumSquares / n - 1)).isLessThan(5 * Math.sqrt(2.0 / n));
    assertThat(sumFourth / n).isBetween(2.5, 3.5);
  }
}
