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
 * where μ bounds the error of the twiddle factors. Our twiddles come from {@link Math#cos} and
 * {@link Math#sin} of an argument with relative error below 2u, so μ ≤ 16u and η ≤ 32u is a safe
 * constant ({@link #relativeErrorBound}).
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
    for (int j = 0; j < half; j++) {
      double angle = 2 * Math.PI * j / size;
      cos[j] = Math.cos(angle);
      sin[j] = Math.sin(angle);
    }
  }

  int size() {
    return size;
  }

  /**
   * Bound on ‖ŷ − y‖₂ / ‖y‖₂ for one transform of this length (forward, or inverse before the 1/n
   * scaling), from Higham's Theorem 24.2 with η = 32u.
   */
  double relativeErrorBound() {
    double eta = 32 * UNIT_ROUNDOFF;
    double t = log2Size * eta;
    return t / (1 - t);
  }

  /** y_k = Σ_j x_j e^{−2πijk/n}, in place. */
  void forward(double[] re, double[] im) {
    transform(re, im, -1);
  }

  /** x_j = (1/n) Σ_k y_k e^{+2πijk/n}, in place (scaled, so it inverts {@link #forward}). */
  void inverse(double[] re, double[] im) {
    transform(re, im, +1);
    double scale = 1.0 / size;
    for (int i = 0; i < size; i++) {
      re[i] *= scale;
      im[i] *= scale;
    }
  }

  private void transform(double[] re, double[] im, int sign) {
    if (re.length != size || im.length != size) {
      throw new IllegalArgumentException(
          "arrays must have length " + size + ", but were " + re.length + " and " + im.length);
    }
    bitReverse(re, im);
    for (int len = 2; len <= size; len <<= 1) {
      int halfLen = len >> 1;
      int step = size / len;
      for (int start = 0; start < size; start += len) {
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
