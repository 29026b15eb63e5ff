package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FftTest {

  @Test
  void forwardMatchesTheNaiveDftOnSeededInputs() {
    SplittableRandom random = new SplittableRandom(11);
    for (int log = 1; log <= 8; log++) {
      int n = 1 << log;
      double[] re = random.doubles(n, -1, 1).toArray();
      double[] im = random.doubles(n, -1, 1).toArray();
      double[] expectedRe = new double[n];
      double[] expectedIm = new double[n];
      for (int k = 0; k < n; k++) {
        for (int j = 0; j < n; j++) {
          double angle = -2 * Math.PI * ((long) j * k % n) / n;
          expectedRe[k] += re[j] * Math.cos(angle) - im[j] * Math.sin(angle);
          expectedIm[k] += re[j] * Math.sin(angle) + im[j] * Math.cos(angle);
        }
      }
      new Fft(n).forward(re, im);
      for (int k = 0; k < n; k++) {
        assertThat(re[k]).isCloseTo(expectedRe[k], within(1e-12));
        assertThat(im[k]).isCloseTo(expectedIm[k], within(1e-12));
      }
    }
  }

  /**
   * The cache-blocked, two-stages-per-pass transform computes bit for bit what the textbook
   * iterative radix-2 algorithm computes (bit reversal, then stages of length 2, 4, …, n, each
   * butterfly a ± w·b with the same twiddle table), so Higham's bound for that algorithm holds.
   */
  @Test
  void isBitForBitTheTextbookRadixTwoAlgorithm() {
    SplittableRandom random = new SplittableRandom(14);
    for (int log = 1; log <= 16; log++) {
      int n = 1 << log;
      double[] re = random.doubles(n, -1, 1).toArray();
      double[] im = random.doubles(n, -1, 1).toArray();
      double[] cos = new double[n / 2];
      double[] sin = new double[n / 2];
      Fft.unitRoots(n, cos, sin);
      for (int sign : new int[] {-1, 1}) {
        double[] expectedRe = re.clone();
        double[] expectedIm = im.clone();
        for (int i = 0; i < n; i++) {
          int j = Integer.reverse(i) >>> (32 - log);
          if (j > i) {
            double t = expectedRe[i];
            expectedRe[i] = expectedRe[j];
            expectedRe[j] = t;
            t = expectedIm[i];
            expectedIm[i] = expectedIm[j];
            expectedIm[j] = t;
          }
        }
        for (int len = 2; len <= n; len <<= 1) {
          for (int start = 0; start < n; start += len) {
            for (int k = 0; k < len / 2; k++) {
              double wr = cos[k * (n / len)];
              double wi = sign * sin[k * (n / len)];
              int a = start + k;
              int b = a + len / 2;
              double xr = expectedRe[b] * wr - expectedIm[b] * wi;
              double xi = expectedRe[b] * wi + expectedIm[b] * wr;
              expectedRe[b] = expectedRe[a] - xr;
              expectedIm[b] = expectedIm[a] - xi;
              expectedRe[a] = expectedRe[a] + xr;
              expectedIm[a] = expectedIm[a] + xi;
            }
          }
        }
        double[] actualRe = re.clone();
        double[] actualIm = im.clone();
        Fft fft = new Fft(n);
        if (sign < 0) {
          fft.forward(actualRe, actualIm);
        } else {
          fft.inverse(actualRe, actualIm);
          for (int i = 0; i < n; i++) {
            expectedRe[i] *= 1.0 / n;
            expectedIm[i] *= 1.0 / n;
          }
        }
        assertThat(actualRe).as("n=%d, sign=%d", n, sign).containsExactly(expectedRe);
        assertThat(actualIm).as("n=%d, sign=%d", n, sign).containsExactly(expectedIm);
      }
    }
  }

  @Test
  void inverseUndoesForwardWithinTheHighamBound() {
    SplittableRandom random = new SplittableRandom(12);
    int n = 1 << 14;
    Fft fft = new Fft(n);
    double[] re = random.doubles(n, 0, 1).toArray();
    double[] im = new double[n];
    double[] original = re.clone();
    fft.forward(re, im);
    fft.inverse(re, im);
    double error2 = 0;
    double norm2 = 0;
    for (int i = 0; i < n; i++) {
      error2 += (re[i] - original[i]) * (re[i] - original[i]) + im[i] * im[i];
      norm2 += original[i] * original[i];
    }
    // Two transforms, each within the bound, plus the scaling.
    assertThat(Math.sqrt(error2 / norm2)).isLessThan(3 * fft.relativeErrorBound());
  }

  @Test
  void productOfTransformsIsTheCircularConvolution() {
    SplittableRandom random = new SplittableRandom(13);
    int n = 64;
    double[] a = random.doubles(n, 0, 1).toArray();
    double[] b = random.doubles(n, 0, 1).toArray();
    double[] expected = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        expected[(i + j) % n] += a[i] * b[j];
      }
    }
    Fft fft = new Fft(n);
    double[] aRe = a.clone();
    double[] aIm = new double[n];
    double[] bRe = b.clone();
    double[] bIm = new double[n];
    fft.forward(aRe, aIm);
    fft.forward(bRe, bIm);
    for (int k = 0; k < n; k++) {
      double r = aRe[k] * bRe[k] - aIm[k] * bIm[k];
      aIm[k] = aRe[k] * bIm[k] + aIm[k] * bRe[k];
      aRe[k] = r;
    }
    fft.inverse(aRe, aIm);
    for (int i = 0; i < n; i++) {
      assertThat(aRe[i]).isCloseTo(expected[i], within(1e-12));
    }
  }

  @Test
  void unitRootsAreAccurateToAFewUlpsOverTheWholeHalfCircle() {
    int n = 1 << 12;
    double[] cos = new double[n / 2 + 1];
    double[] sin = new double[n / 2 + 1];
    Fft.unitRoots(n, cos, sin);
    for (int j = 0; j <= n / 2; j++) {
      java.math.BigDecimal angle =
          new java.math.BigDecimal("6.28318530717958647692528676655900576839433879875021")
              .multiply(java.math.BigDecimal.valueOf(j))
              .divide(java.math.BigDecimal.valueOf(n), java.math.MathContext.DECIMAL128);
      // Reference: Math.cos/sin of the correctly rounded angle (itself within about 2u).
      double exactCos = Math.cos(angle.doubleValue());
      double exactSin = Math.sin(angle.doubleValue());
      assertThat(cos[j]).isCloseTo(exactCos, within(8 * Fft.UNIT_ROUNDOFF));
      assertThat(sin[j]).isCloseTo(exactSin, within(8 * Fft.UNIT_ROUNDOFF));
    }
    assertThat(cos[n / 4]).isEqualTo(0.0);
    assertThat(sin[n / 4]).isEqualTo(1.0);
    assertThat(cos[n / 2]).isEqualTo(-1.0);
    assertThat(sin[n / 2]).isEqualTo(0.0);
  }

  @Test
  void unitRootsOfHalfTheOrderAreTheEvenEntriesBitForBit() {
    // What lets the in-cache stages read a small table copied from the full one (Fft's
    // constructor) with every butterfly unchanged.
    for (int n = 4; n <= 1 << 20; n *= 2) {
      double[] cos = new double[n / 2 + 1];
      double[] sin = new double[n / 2 + 1];
      Fft.unitRoots(n, cos, sin);
      double[] halfCos = new double[n / 4 + 1];
      double[] halfSin = new double[n / 4 + 1];
      Fft.unitRoots(n / 2, halfCos, halfSin);
      for (int j = 0; j <= n / 4; j++) {
        assertThat(Double.doubleToRawLongBits(halfCos[j]))
            .as("cos, order %d, entry %d", n / 2, j)
            .isEqualTo(Double.doubleToRawLongBits(cos[2 * j]));
        assertThat(Double.doubleToRawLongBits(halfSin[j]))
            .as("sin, order %d, entry %d", n / 2, j)
            .isEqualTo(Double.doubleToRawLongBits(sin[2 * j]));
      }
    }
  }

  @Test
  void skippingTheStagesThatOnlyCopyAZeroPaddedInputChangesNoBit() {
    // With x_j = +0.0 for j >= n/2^s, the first s stages turn each aligned group of 2^s
    // bit-reversed points into copies of its first; a transform told so skips them (RealFft does
    // for terms shorter than the window). Seeded inputs of both signs, every s up to log2 n.
    java.util.Random random = new java.util.Random(20);
    for (int n : new int[] {2, 16, 1 << 13, 1 << 14}) {
      int bits = Integer.numberOfTrailingZeros(n);
      for (int s = 0; s <= bits; s++) {
        int used = Math.max(1, (n >> s) - random.nextInt(Math.max(1, (n >> s) / 2)));
        double[] re = new double[n];
        double[] im = new double[n];
        for (int j = 0; j < used; j++) {
          re[j] = random.nextDouble() - 0.5;
          im[j] = random.nextInt(4) == 0 ? 0.0 : random.nextDouble() - 0.5;
        }
        double[] copiesRe = new double[n];
        double[] copiesIm = new double[n];
        for (int j = 0; j < used; j++) {
          int r = bits == 0 ? 0 : Integer.reverse(j) >>> (32 - bits);
          java.util.Arrays.fill(copiesRe, r, r + (1 << s), re[j]);
          java.util.Arrays.fill(copiesIm, r, r + (1 << s), im[j]);
        }
        Fft fft = new Fft(n);
        fft.forward(re, im);
        fft.forwardFromBitReversed(copiesRe, copiesIm, s);
        for (int k = 0; k < n; k++) {
          assertThat(Double.doubleToRawLongBits(copiesRe[k])).as("n %d, s %d, re %d", n, s, k)
              .isEqualTo(Double.doubleToRawLongBits(re[k]));
          assertThat(Double.doubleToRawLongBits(copiesIm[k])).as("n %d, s %d, im %d", n, s, k)
              .isEqualTo(Double.doubleToRawLongBits(im[k]));
        }
      }
    }
  }

  @Test
  void rejectsLengthsThatAreNotPowersOfTwo() {
    assertThatThrownBy(() -> new Fft(12))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("size must be a power of two >= 2, but was 12");
    assertThatThrownBy(() -> new Fft(1)).isInstanceOf(IllegalArgumentException.class);
  }
}
