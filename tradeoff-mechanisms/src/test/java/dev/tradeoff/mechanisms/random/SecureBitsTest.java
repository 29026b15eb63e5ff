package dev.tradeoff.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.mechanisms.response.RandomizedResponse;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.DiscreteGaussian;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.selection.ExponentialMechanism;
import dev.tradeoff.mechanisms.testing.GoodnessOfFit;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SecureBitsTest {

  /** A reproducible byte source that records every byte it hands out and counts its refills. */
  private static final class RecordingSource implements Consumer<byte[]> {
    final SplittableRandom random;
    final ByteArrayOutputStream served = new ByteArrayOutputStream();
    int refills;

    RecordingSource(long seed) {
      random = new SplittableRandom(seed);
    }

    @Override
    public void accept(byte[] block) {
      random.nextBytes(block);
      served.write(block, 0, block.length);
      refills++;
    }
  }

  private static boolean bit(byte[] bytes, long index) {
    return ((bytes[(int) (index >>> 3)] >>> (7 - (index & 7))) & 1) != 0;
  }

  @Test
  void bitsHandedOutAreExactlyTheSourceStreamAcrossRefills() {
    RecordingSource source = new RecordingSource(11);
    SecureBits bits = new SecureBits(source, 16); // small blocks: hundreds of refills
    SplittableRandom widths = new SplittableRandom(5);
    long[] values = new long[20_000];
    int[] sizes = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      sizes[i] = 1 + widths.nextInt(64);
      values[i] = bits.nextBits(sizes[i]);
    }
    byte[] stream = source.served.toByteArray();
    long position = 0;
    for (int i = 0; i < values.length; i++) {
      for (int b = sizes[i] - 1; b >= 0; b--, position++) {
        assertThat(((values[i] >>> b) & 1) != 0).as("bit %d", position).isEqualTo(bit(stream, position));
      }
    }
    assertThat(bits.bitsDrawn()).isEqualTo(position);
    // every block read was needed: no block skipped, none read ahead beyond the one in use
    assertThat(source.refills).isEqualTo((int) ((position + 127) / 128));
  }

  @Test
  void wordsAlignedOnTheBlockAreTheSourceBytesBigEndian() {
    RecordingSource source = new RecordingSource(3);
    SecureBits bits = new SecureBits(source, 8);
    long first = bits.nextLong();
    long second = bits.nextLong();
    byte[] stream = source.served.toByteArray();
    assertThat(stream).hasSize(16);
    assertThat(first).isEqualTo(java.nio.ByteBuffer.wrap(stream, 0, 8).getLong());
    assertThat(second).isEqualTo(java.nio.ByteBuffer.wrap(stream, 8, 8).getLong());
  }

  @Test
  void eachPrimitiveDrawsOnlyTheBitsItNeeds() {
    SecureBits bits = new SecureBits(new RecordingSource(1), 64);
    long before = bits.bitsDrawn();
    bits.nextBoolean();
    assertThat(bits.bitsDrawn() - before).isEqualTo(1);
    before = bits.bitsDrawn();
    bits.nextLong(1L << 40);
    assertThat(bits.bitsDrawn() - before).isEqualTo(40);
    before = bits.bitsDrawn();
    bits.nextInt(1);
    assertThat(bits.bitsDrawn() - before).isZero();
    before = bits.bitsDrawn();
    bits.nextDouble();
    assertThat(bits.bitsDrawn() - before).isEqualTo(53);
    before = bits.bitsDrawn();
    bits.nextInt();
    assertThat(bits.bitsDrawn() - before).isEqualTo(32);
  }

  @Test
  void boundedDrawsAreUniformWithTheExpectedNumberOfRounds() {
    SecureBits bits = new SecureBits(new RecordingSource(2), 4096);
    int bound = 5; // 11-bit candidates (3 + 8), rejected when the low part is below 2^11 mod 5 = 3
    int n = 200_000;
    long[] counts = new long[bound];
    long before = bits.bitsDrawn();
    for (int i = 0; i < n; i++) {
      counts[bits.nextInt(bound)]++;
    }
    double[] uniform = new double[bound];
    Arrays.fill(uniform, 1.0 / bound);
    assertThat(GoodnessOfFit.chiSquarePValue(counts, uniform)).isGreaterThan(GoodnessOfFit.ALPHA);
    long drawn = bits.bitsDrawn() - before;
    assertThat(drawn % 11).isZero();
    // rounds are geometric with mean 2048/2045 and variance (3/2048)/(2045/2048)^2 per draw
    double reject = 3.0 / 2048;
    double meanRounds = drawn / 11.0 / n;
    assertThat(Math.abs(meanRounds - 1 / (1 - reject)))
        .isLessThan(5 * Math.sqrt(reject / ((1 - reject) * (1 - reject)) / n));
  }

  /**
   * Every candidate of w bits, mapped: each value below the bound comes from exactly ⌊2^w/b⌋
   * candidates and the other 2^w mod b are rejected, so the bounded draw is exactly uniform (checked
   * exhaustively for small bounds at every width from ⌈log2 b⌉ + 1 bits up to the production width
   * ⌈log2 b⌉ + 8 or 20 bits, whichever is smaller).
   */
  @Test
  void everyValueComesFromTheSameNumberOfCandidates() {
    long[] bounds = {3, 5, 6, 7, 10, 11, 100, 1000, 4095, 4097};
    for (long bound : bounds) {
      int ceilLog = 64 - Long.numberOfLeadingZeros(bound - 1);
      for (int bitsWide = ceilLog + 1; bitsWide <= Math.min(SecureBits.candidateBits(bound), 20); bitsWide++) {
        long candidates = 1L << bitsWide;
        long[] hits = new long[(int) bound];
        long rejected = 0;
        for (long c = 0; c < candidates; c++) {
          long value = SecureBits.fromCandidate(c, bound, bitsWide);
          if (value < 0) {
            rejected++;
          } else {
            hits[(int) value]++;
          }
        }
        assertThat(rejected).as("bound %d, %d bits", bound, bitsWide).isEqualTo(candidates % bound);
        for (long h : hits) {
          assertThat(h).as("bound %d, %d bits", bound, bitsWide).isEqualTo(candidates / bound);
        }
      }
    }
    assertThat(SecureBits.candidateBits(10)).isEqualTo(12);
  }

  /**
   * Large bounds, where the product needs 128 bits and (for the widest) the candidate is all 64
   * bits: the mapped value agrees with ⌊c·b/2^w⌋ and the rejection rule computed in BigInteger.
   */
  @Test
  void wideCandidatesMapAsTheExactProductSays() {
    SplittableRandom random = new SplittableRandom(17);
    for (int i = 0; i < 100_000; i++) {
      int length = 2 + random.nextInt(62); // the bound's bit length, 2 to 63
      long bound = random.nextLong(1L << (length - 1), length == 63 ? Long.MAX_VALUE : 1L << length);
      if ((bound & (bound - 1)) == 0) {
        continue;
      }
      int bitsWide = SecureBits.candidateBits(bound);
      long candidate = random.nextLong() >>> (64 - bitsWide);
      if (i % 4 == 0) { // c = ⌈r·2^w/b⌉: a low part below b, where the rejection rule decides
        BigInteger r = BigInteger.valueOf(random.nextLong(bound));
        BigInteger[] qr = r.shiftLeft(bitsWide).divideAndRemainder(BigInteger.valueOf(bound));
        candidate = qr[0].add(qr[1].signum() == 0 ? BigInteger.ZERO : BigInteger.ONE).longValue();
      }
      BigInteger c = new BigInteger(Long.toUnsignedString(candidate));
      BigInteger product = c.multiply(BigInteger.valueOf(bound));
      BigInteger low = product.subtract(product.shiftRight(bitsWide).shiftLeft(bitsWide));
      BigInteger threshold = BigInteger.ONE.shiftLeft(bitsWide).mod(BigInteger.valueOf(bound));
      long expected = low.compareTo(threshold) < 0 ? -1 : product.shiftRight(bitsWide).longValueExact();
      assertThat(SecureBits.fromCandidate(candidate, bound, bitsWide))
          .as("bound %d, candidate %s", bound, Long.toUnsignedString(candidate)).isEqualTo(expected);
    }
  }

  /**
   * The expected bits of one Bernoulli(e^{−n/d}) draw with n ≤ d [CKS20, Algorithm 1]: round k
   * (reached with probability γ^{k−1}/(k−1)!) draws a uniform below d·k ({@link #uniformBits}).
   */
  private static double expectedBernoulliExpBits(long n, long d) {
    double gamma = (double) n / d;
    double reach = 1;
    double total = 0;
    for (int k = 1; reach > 1e-18; k++) {
      total += reach * uniformBits(d * k);
      reach *= gamma / k;
    }
    return total;
  }

  @Test
  void bernoulliExpDrawsTheBitsItsAlgorithmNeedsAndNoMore() {
    SecureBits bits = new SecureBits(new RecordingSource(4), 4096);
    Rational gamma = Rational.of(1, 3);
    double expected = expectedBernoulliExpBits(1, 3);
    assertMeanBitsPerSample(bits, () -> BernoulliExp.sample(bits, gamma), expected);
    // about 14: one 10-bit candidate (⌈log2 3⌉ + 8) and rarely a second round, not 64 per round
    assertThat(expected).isLessThan(15);
  }

  @Test
  void randomizedResponseDrawsTheBitsItsAlgorithmNeedsAndNoMore() {
    // k = 4, ε = 1/2: a round draws 2 bits for the proposal and, when the proposal is not the true
    // value (probability 3/4), one Bernoulli(e^{−1/2}); it ends when the proposal is the true value or
    // that Bernoulli succeeds. Expected bits = (2 + (3/4)·B) / (1/4 + (3/4)e^{−1/2}).
    SecureBits bits = new SecureBits(new RecordingSource(6), 4096);
    RandomizedResponse rr = RandomizedResponse.kAry(0.5, 4);
    double expected =
        (2 + 0.75 * expectedBernoulliExpBits(1, 2)) / (0.25 + 0.75 * Math.exp(-0.5));
    assertMeanBitsPerSample(bits, () -> rr.release(2, bits), expected);
  }

  @Test
  void exponentialMechanismDrawsTheBitsItsAlgorithmNeedsAndNoMore() {
    // ε = 1, Δ = 1, utilities {2, 1, 2, 0}: γ_r = (2 − u_r)/2 = 0, 1/2, 0, 1. A proposal draws 2 bits
    // for r and one Bernoulli(e^{−γ_r}) (no bits when γ_r = 0; CKS Algorithm 1 otherwise); by Wald's
    // identity the expected bits are E[proposals]·E[bits per proposal], with E[proposals] =
    // 1/((1/4)Σ_r e^{−γ_r}).
    SecureBits bits = new SecureBits(new RecordingSource(9), 4096);
    ExponentialMechanism mechanism = ExponentialMechanism.of(1, 1);
    double[] utilities = {2, 1, 2, 0};
    double perProposal = 2 + (expectedBernoulliExpBits(1, 2) + expectedBernoulliExpBits(1, 1)) / 4;
    double acceptance = (2 + Math.exp(-0.5) + Math.exp(-1)) / 4;
    assertMeanBitsPerSample(bits, () -> mechanism.select(utilities, bits), perProposal / acceptance);
  }

  /**
   * Expected bits of {@code nextLong(bound)}: j for bound 2^j; otherwise candidates of w =
   * min(64, ⌈log2 bound⌉ + 8) bits, each rejected with probability (2^w mod bound)/2^w.
   */
  private static double uniformBits(long bound) {
    if ((bound & (bound - 1)) == 0) {
      return Long.numberOfTrailingZeros(bound);
    }
    int w = SecureBits.candidateBits(bound);
    double reject = Math.scalb((double) SecureBits.powerModulo(w, bound), -w);
    return w / (1 - reject);
  }

  /**
   * The expected bits of one discrete Gaussian draw for σ = p/q (see {@link DiscreteGaussian}): a
   * round draws 32 bits for k, 32 more for k ≥ 2 (kept with probability e^{−k(k−1)/2}), when k is
   * kept a uniform below 2⌈σ⌉ (J and the sign), and for i = ⌈kσ⌉ + J with 0 &lt; a = qi − kp &lt; p one
   * 32-bit word compared with e^{−γ}, γ = x(2k + x)/2, x = a/p; an accepted round succeeds unless i =
   * 0 and the sign is negative. By Wald's identity the expected bits are E[bits per round]/Pr[a
   * round succeeds]. (A tie of the 32-bit comparisons, probability below 2^−26 each, is left out: it
   * moves the mean by less than 10^−5.)
   */
  private static double expectedDiscreteGaussianBits(long p, long q) {
    long ceilSigma = (p + q - 1) / q;
    double half = Math.exp(-0.5);
    double bitsPerRound = 32;
    double success = 0;
    for (long k = 0; k < 12; k++) {
      double pk = (1 - half) * Math.pow(half, k);
      double kept = Math.exp(-k * (k - 1) / 2.0);
      if (k >= 2) {
        bitsPerRound += pk * 32;
      }
      double pKept = pk * kept;
      bitsPerRound += pKept * uniformBits(2 * ceilSigma); // J and the sign
      long ceilK = (k * p + q - 1) / q;
      for (long j = 0; j < ceilSigma; j++) {
        double pj = pKept / ceilSigma;
        long i = ceilK + j;
        long a = q * i - k * p;
        if (a >= p) {
          continue;
        }
        double accept = 1;
        if (a > 0) {
          double x = (double) a / p;
          bitsPerRound += pj * 32; // step 4: one 32-bit word against e^{−γ}
          accept = Math.exp(-x * (2 * k + x) / 2);
        }
        success += pj * accept * (i == 0 ? 0.5 : 1);
      }
    }
    return bitsPerRound / success;
  }

  @Test
  void discreteGaussianDrawsTheBitsItsAlgorithmNeedsAndNoMore() {
    SecureBits bits = new SecureBits(new RecordingSource(10), 4096);
    for (long[] sigma : new long[][] {{10, 1}, {3, 2}, {1, 3}}) {
      Rational s = Rational.of(sigma[0], sigma[1]);
      DiscreteGaussian gaussian = new DiscreteGaussian(s.times(s));
      assertMeanBitsPerSample(
          bits, () -> gaussian.sample(bits), expectedDiscreteGaussianBits(sigma[0], sigma[1]));
    }
  }

  /** The mean bits per sample over 200 000 samples is within 5 standard errors of the expectation. */
  private static void assertMeanBitsPerSample(SecureBits bits, Runnable sample, double expected) {
    int n = 200_000;
    double sum = 0;
    double sumSquares = 0;
    for (int i = 0; i < n; i++) {
      long before = bits.bitsDrawn();
      sample.run();
      double used = bits.bitsDrawn() - before;
      sum += used;
      sumSquares += used * used;
    }
    double mean = sum / n;
    double sd = Math.sqrt(sumSquares / n - mean * mean);
    assertThat(Math.abs(mean - expected)).isLessThan(5 * sd / Math.sqrt(n));
  }

  @Test
  void threadsReadDisjointPartsOfTheStream() throws Exception {
    SecureBits bits = SecureBits.fromDrbg();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<long[]> a = pool.submit(() -> bits.longs(512).toArray());
      Future<long[]> b = pool.submit(() -> bits.longs(512).toArray());
      long[] all = new long[1024];
      System.arraycopy(a.get(), 0, all, 0, 512);
      System.arraycopy(b.get(), 0, all, 512, 512);
      assertThat(Arrays.stream(all).distinct().count()).isEqualTo(1024);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badBoundsNameTheParameter() {
    SecureBits bits = new SecureBits(new RecordingSource(1), 8);
    assertThatThrownBy(() -> bits.nextLong(0)).hasMessageContaining("bound").hasMessageContaining("0");
    assertThatThrownBy(() -> bits.nextInt(5, 5)).hasMessageContaining("origin");
    assertThatThrownBy(() -> new SecureBits(new RecordingSource(1), 12))
        .hasMessageContaining("blockBytes");
  }

  @Test
  void rangesWiderThanALongStayInRange() {
    SecureBits bits = new SecureBits(new RecordingSource(8), 64);
    for (int i = 0; i < 1000; i++) {
      assertThat(bits.nextLong(-5, Long.MAX_VALUE)).isBetween(-5L, Long.MAX_VALUE - 1);
      assertThat(bits.nextInt(-3, 4)).isBetween(-3, 3);
    }
  }
}
