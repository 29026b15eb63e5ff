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
