package dev.tradeoff.mechanisms.sampling;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.binomialZ;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The long path of the discrete Gaussian's acceptance step against its BigInteger path. */
class DiscreteGaussianFastPathTest {

  private static final long LIMIT = 1L << 62;

  /** Both paths from the same stream: same answer, and the stream left at the same place. */
  private static void assertSameDraw(long a, long p, long seed) {
    SplittableRandom fast = new SplittableRandom(seed);
    SplittableRandom reference = new SplittableRandom(seed);
    boolean x = DiscreteGaussian.acceptSquareLong(fast, a, p);
    boolean y =
        DiscreteGaussian.acceptSquareBig(reference, BigInteger.valueOf(a), BigInteger.valueOf(p));
    assertThat(x).as("a = %d, p = %d, seed %d", a, p, seed).isEqualTo(y);
    assertThat(fast.nextLong()).as("stream after a = %d, p = %d", a, p).isEqualTo(reference.nextLong());
  }

  @Test
  void longPathDrawsExactlyWhatTheBigIntegerPathDraws() {
    SplittableRandom inputs = new SplittableRandom(2024);
    for (int i = 0; i < 20_000; i++) {
      int pBits = 1 + inputs.nextInt(62);
      long p = Math.max(1, inputs.nextLong(1L << pBits));
      // a around p (the common case), a few multiples of p, or anything below 2^62
      long a = switch (inputs.nextInt(3)) {
        case 0 -> inputs.nextLong(p < LIMIT / 3 ? 3 * p + 1 : LIMIT);
        case 1 -> p < LIMIT / 4 ? p * (1 + inputs.nextInt(4)) : p;
        default -> inputs.nextLong(LIMIT);
      };
      assertSameDraw(a, p, inputs.nextLong());
    }
  }

  @Test
  void edgeCasesAgreeToo() {
    long[][] cases = {
      {0, 1}, {1, 1}, {2, 1}, {0, LIMIT - 1}, {LIMIT - 1, LIMIT - 1}, {LIMIT - 1, 1},
      {LIMIT - 2, LIMIT - 1}, {1, LIMIT - 1}, {(1L << 61) - 1, 1L << 60}, {(1L << 61) + 1, 1L << 60},
      // pc just below and above 2^62, and 2pc so large that the second index already needs 2^62
      {(1L << 61), (1L << 61) - 1}, {(1L << 60) + 1, (1L << 60)}, {3, (1L << 60) - 1},
      {(1L << 31) * 7 + 5, 7}, {(1L << 31) * 7 - 5, 7}
    };
    for (long[] c : cases) {
      for (long seed = 0; seed < 200; seed++) {
        assertSameDraw(c[0], c[1], seed);
      }
    }
  }

  /**
   * Whole draws: the discrete Laplace's long path against its BigInteger loop, and the discrete
   * Gaussian's long path against a BigInteger transcription of the same algorithm (proposal of
   * scale σ = p/q, acceptance by {@link DiscreteGaussian#acceptSquareBig}), from the same streams.
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
      while (true) {
        BigInteger y = DiscreteLaplace.sampleBigInteger(reference, sigma.denominator(), sigma.numerator());
        BigInteger a = sigma.denominator().multiply(y.abs()).subtract(sigma.numerator()).abs();
        if (DiscreteGaussian.acceptSquareBig(reference, a, sigma.numerator())) {
          expected = y;
          break;
        }
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

  /**
   * The split-coin construction accepts with probability e^{−a²/(2p²)} exactly: frequencies over
   * 200 000 draws within 4.5 standard errors, for c = ⌈a/p⌉ = 1, 2 and 4 (one, four and sixteen
   * runs of CKS Algorithm 1).
   */
  @Test
  void acceptsWithProbabilityExpMinusASquaredOverTwoPSquared() {
    long[][] cases = {{3, 4}, {5, 7}, {3, 2}, {10, 3}, {7, 7}};
    SplittableRandom random = new SplittableRandom(77);
    int n = 200_000;
    for (long[] c : cases) {
      long accepted = 0;
      for (int i = 0; i < n; i++) {
        accepted += DiscreteGaussian.acceptSquareLong(random, c[0], c[1]) ? 1 : 0;
      }
      double expected = Math.exp(-(double) c[0] * c[0] / (2.0 * c[1] * c[1]));
      assertThat(binomialZ(accepted, n, expected)).as("a = %d, p = %d", c[0], c[1]).isLessThan(4.5);
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
