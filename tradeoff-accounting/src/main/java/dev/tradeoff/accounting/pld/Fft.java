package dev.tradeoff.accounting.pld;

/**
 * An in-place iterative radix-2 Cooley–Tukey FFT on split real/imaginary arrays, used to convolve
 * privacy loss distributions.
 *
 * <p>Written here rather than taken from a library: JTransforms (last release 2015) keeps a global
 * thread pool, and commons-math4-transform exists only as a beta; more importantly the composition
 * adds a rigorous round-off bound to δ, and that bound (Higham, <i>Accuracy and Stability of
 * Numerical Algorithms</i>, 2nd ed., Theorem 24.2) is stated for exactly this algorithm: the computed
 * transform ŷ of x satisfies ‖ŷ − y‖₂ ≤ log₂(n)·η/(1 − log₂(n)·η)·‖y‖₂ with η = μ + γ₄(√2 + μ),
 * where μ bounds the error of the twiddle factors. Our twiddles are evaluated at angles ≤ π/4 only
 * ({@link #unitRoots}), so μ ≤ 3u, η ≤ 3u + γ₄(√2 + 3u) < 10u, and η = 12u is a safe constant
 * ({@link #relativeErrorBound}).
 */
final class Fft {

  /** Unit round-off u = 2⁻⁵³. */
  static final double UNIT_ROUNDOFF = 0x1.0p-53;

  private final int size;
  private final int log2Size;
  private final double[] cos;
  private final double[] sin;

  /**
   * A transform of the given length.
   *
   * @param size a power of two ≥ 2
   */
  Fft(int size) {
    if (size < 2 || Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two >= 2, but was " + size);
    }
    this.size = size;
    this.log2Size = Integer.numberOfTrailingZeros(size);
    int half = size / 2;
    cos = new double[half];
    sin = new double[half];
    unitRoots(size, cos, sin);
  }

  /**
   * cos(2πj/n) and sin(2πj/n) for j = 0 … cos.length − 1 (at most n/2), evaluated only at angles
   * ≤ π/4 and mapped to the others by the exact symmetries cos(π/2 − θ) = sin θ and
   * cos(π − θ) = −cos θ, so every value is within about 3u of the true one.
   */
  static void unitRoots(int n, double[] cos, double[] sin) {
    for (int j = 0; j < cos.length; j++) {
      int r = j;
      boolean negateCos = false;
      if (4 * (long) r > n) { // θ > π/2: use π − θ
        r = n / 2 - r;
        negateCos = true;
      }
      double c;
      double s;
      if (8 * (long) r > n) { // θ > π/4: use π/2 − θ
        double angle = 2 * Math.PI * (n / 4 - r) / n;
        c = Math.sin(angle);
        s = Math.cos(angle);
      } else {
        double angle = 2 * Math.PI * r / n;
        c = Math.cos(angle);
        s = Math.sin(angle);
      }
      cos[j] = negateCos ? -c : c;
      sin[j] = s;
    }
  }

  int size() {
    return size;
  }

  /**
   * Bound on ‖ŷ − y‖₂ / ‖y‖₂ for one transform of this length (forward, or inverse before the 1/n
   * scaling), from Higham's Theorem 24.2 with η = 12u.
   */
  double relativeErrorBound() {
    double eta = 12 * UNIT_ROUNDOFF;
    double t = log2Size * eta;
    return t / (1 - t);
  }

  /** y_k = Σ_j x_j e^{−2πijk/n}, in place. */
  void forward(double[] re, double[] im) {
    checkLengths(re, im);
    bitReverse(re, im);
    butterflies(re, im, -1);
  }

  /**
   * The same as {@link #forward} for input already stored in bit-reversed order (x_j at index
   * rev(j)), as {@link RealFft} writes it while packing: this saves a pass of scattered swaps.
   */
  void forwardFromBitReversed(double[] re, double[] im) {
    checkLengths(re, im);
    butterflies(re, im, -1);
  }

  /** x_j = (1/n) Σ_k y_k e^{+2πijk/n}, in place (scaled, so it inverts {@link #forward}). */
  void inverse(double[] re, double[] im) {
    checkLengths(re, im);
    bitReverse(re, im);
    inverseButterflies(re, im);
  }

  /** The same as {@link #inverse} for input already stored in bit-reversed order. */
  void inverseFromBitReversed(double[] re, double[] im) {
    checkLengths(re, im);
    inverseButterflies(re, im);
  }

  /** The bit-reversed position rev(j) of index j. */
  int reversed(int j) {
    return Integer.reverse(j) >>> (32 - log2Size);
  }

  private void inverseButterflies(double[] re, double[] im) {
    butterflies(re, im, +1);
    double scale = 1.0 / size;
    for (int i = 0; i < size; i++) {
      re[i] *= scale;
      im[i] *= scale;
    }
  }

  private void checkLengths(double[] re, double[] im) {
    if (re.length != size || im.length != size) {
      throw new IllegalArgumentException(
          "arrays must have length " + size + ", but were " + re.length + " and " + im.length);
    }
  }

  /**
   * The radix-2 decimation-in-time stages on bit-reversed input. The stages of length up to
   * {@value #CACHE_BLOCK} act within aligned blocks of that many points, so each block is taken
   * through all of them while it is in cache; the longer stages then run over the whole array.
   * Every butterfly computes exactly the same floating-point operations on the same operands as
   * the stage-by-stage order (the length-2 stage, whose twiddle is exactly 1, is written without
   * the multiplications by 1 and 0, which are exact), so the results and the error bound are
   * those of the textbook algorithm.
   */
  private void butterflies(double[] re, double[] im, int sign) {
    int block = Math.min(size, CACHE_BLOCK);
    for (int base = 0; base < size; base += block) {
      for (int i = base; i < base + block; i += 2) {
        double ar = re[i];
        double ai = im[i];
        double br = re[i + 1];
        double bi = im[i + 1];
        re[i] = ar + br;
        im[i] = ai + bi;
        re[i + 1] = ar - br;
        im[i + 1] = ai - bi;
      }
      for (int len = 4; len <= block; len <<= 1) {
        stage(re, im, sign, len, base, base + block);
      }
    }
    for (int len = 2 * block; len <= size; len <<= 1) {
      stage(re, im, sign, len, 0, size);
    }
  }

  /** Points per cache block: two arrays of this many doubles take 64 KiB. */
  private static final int CACHE_BLOCK = 1 << 12;

  /** One stage of butterflies of the given length over the indices [from, to). */
  private void stage(double[] re, double[] im, int sign, int len, int from, int to) {
    int halfLen = len >> 1;
    int step = size / len;
    for (int start = from; start < to; start += len) {
      for (int k = 0, t = 0; k < halfLen; k++, t += step) {
        double wr = cos[t];
        double wi = sign * sin[t];
        int a = start + k;
        int b = a + halfLen;
        double xr = re[b] * wr - im[b] * wi;
        double xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }

  private void bitReverse(double[] re, double[] im) {
    int shift = 32 - log2Size;
    for (int i = 0; i < size; i++) {
      int j = Integer.reverse(i) >>> shift;
      if (j > i) {
        double tr = re[i];
        re[i] = re[j];
        re[j] = tr;
        double ti = im[i];
        im[i] = im[j];
        im[j] = ti;
      }
    }
  }
}
