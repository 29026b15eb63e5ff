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
 *
 * <p>The same constant bounds every entry: |ŷ_k − y_k| ≤ log₂(n)·η/(1 − log₂(n)·η)·‖x‖₁. By
 * induction over the stages, an entry after stage s is a DFT of length 2^s of a subsequence x_S,
 * so its modulus is at most ‖x_S‖₁, and a butterfly a ± ŵb adds to the errors of its two inputs
 * (whose subsequences partition S) at most η‖x_S‖₁ (twiddle error, complex product and sum, the
 * terms of Higham's per-stage bound taken entry by entry); after log₂ n stages the error is at
 * most log₂(n)·η·‖x‖₁ up to second-order terms, which the denominator covers. The composition
 * uses this componentwise form ({@link Composer}).
 */
final class Fft {

  /** Unit round-off u = 2⁻⁵³. */
  static final double UNIT_ROUNDOFF = 0x1.0p-53;

  private final int size;
  private final int log2Size;
  private final double[] cos;
  private final double[] sin;
  /**
   * The unit roots of order {@code min(size, CACHE_BLOCK)}: the stages that run within a cache
   * block read these, a table small enough to stay in cache, instead of every (size/len)-th entry
   * of the full one. Entry j of order n/2^s is entry j·2^s of order n bit for bit (see {@link
   * #unitRoots}), so they are copied from the full table and every butterfly is unchanged.
   */
  private final double[] blockCos;
  private final double[] blockSin;

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
    int block = Math.min(size, CACHE_BLOCK);
    int spacing = size / block;
    blockCos = new double[block / 2];
    blockSin = new double[block / 2];
    for (int j = 0; j < block / 2; j++) {
      blockCos[j] = cos[j * spacing];
      blockSin[j] = sin[j * spacing];
    }
  }

  /**
   * cos(2πj/n) and sin(2πj/n) for j = 0 … cos.length − 1 (at most n/2 + 1), evaluated only at
   * angles 2πt/n ≤ π/4 (t ≤ n/8) and mapped to the others by the exact symmetries
   * cos(π/2 − θ) = sin θ and cos(π − θ) = −cos θ, so every value is within about 3u of the true
   * one. Each of cos and sin is evaluated once per t and copied to the entries that share it.
   *
   * <p>For powers of two n ≥ 4 the entry 2j of order n equals the entry j of order n/2 bit for
   * bit: the angle 2π(2t)/n is evaluated as (2π·2t)/n, which is 2π·t/(n/2) scaled by the exact
   * factors 2 and 1/2 around one rounding each, and the octant tests and maps commute with the
   * halving (checked for every order up to 2^20 in {@code FftTest}).
   */
  static void unitRoots(int n, double[] cos, double[] sin) {
    // Entries j ≤ n/8 are the evaluated ones: angle ≤ π/4.
    int direct = Math.min(cos.length, n / 8 + 1);
    for (int t = 0; t < direct; t++) {
      double angle = 2 * Math.PI * t / n;
      cos[t] = Math.cos(angle);
      sin[t] = Math.sin(angle);
    }
    for (int j = direct; j < cos.length; j++) {
      int r = j;
      boolean negateCos = false;
      if (4 * (long) r > n) { // θ > π/2: use π − θ
        r = n / 2 - r;
        negateCos = true;
      }
      double c;
      double s;
      if (8 * (long) r > n) { // θ > π/4: use π/2 − θ, t = n/4 − r ≤ n/8
        int t = n / 4 - r;
        c = t < direct ? sin[t] : Math.sin(2 * Math.PI * t / n);
        s = t < direct ? cos[t] : Math.cos(2 * Math.PI * t / n);
      } else {
        c = r < direct ? cos[r] : Math.cos(2 * Math.PI * r / n);
        s = r < direct ? sin[r] : Math.sin(2 * Math.PI * r / n);
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
    butterflies(re, im, -1, 0);
  }

  /**
   * The same as {@link #forward} for input already stored in bit-reversed order (x_j at index
   * rev(j)), as {@link RealFft} writes it while packing: this saves a pass of scattered swaps.
   *
   * <p>With {@code trivial} = s &gt; 0 the input is x_j = +0.0 for every j ≥ n/2^s, no x_j is
   * −0.0, and the caller has stored each aligned group of 2^s points as copies of the group's
   * first, x_j at rev(j): that is what the first s stages compute there (each butterfly adds and
   * subtracts a product of +0.0 and a twiddle, ±0, which leaves a non-zero value, or +0.0, exactly
   * as it is), so they are skipped and the output is bit for bit that of the full transform.
   */
  void forwardFromBitReversed(double[] re, double[] im, int trivial) {
    checkLengths(re, im);
    butterflies(re, im, -1, trivial);
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
    butterflies(re, im, +1, 0);
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
   * Two consecutive stages are run in one pass where both fit ({@link #stagePair}), which halves
   * the passes over memory. Every butterfly computes exactly the same floating-point operations
   * on the same operands as the stage-by-stage order (the length-2 stage, whose twiddle is
   * exactly 1, is written without the multiplications by 1 and 0, which are exact), so the
   * results and the error bound are those of the textbook algorithm.
   */
  private void butterflies(double[] re, double[] im, int sign, int trivial) {
    int block = Math.min(size, CACHE_BLOCK);
    long first = 2L << trivial; // the length of the first stage to run
    for (int base = 0; base < size; base += block) {
      for (int i = base; first == 2 && i < base + block; i += 2) {
        double ar = re[i];
        double ai = im[i];
        double br = re[i + 1];
        double bi = im[i + 1];
        re[i] = ar + br;
        im[i] = ai + bi;
        re[i + 1] = ar - br;
        im[i + 1] = ai - bi;
      }
      stages(re, im, sign, (int) Math.min(Math.max(4, first), 2L * block), block, base,
          base + block, blockCos, blockSin, block);
    }
    stages(re, im, sign, (int) Math.min(Math.max(2 * block, first), 2L * size), size, 0, size,
        cos, sin, size);
  }

  /**
   * The stages of lengths first, 2·first, … up to last over [from, to), two at a time, reading
   * the unit roots of the given order (a multiple of last) from the tables.
   */
  private static void stages(double[] re, double[] im, int sign, int first, int last, int from,
      int to, double[] cos, double[] sin, int order) {
    int len = first;
    while (len <= last) {
      if (2 * len <= last) {
        stagePair(re, im, sign, len, from, to, cos, sin, order);
        len <<= 2;
      } else {
        stage(re, im, sign, len, from, to, cos, sin, order);
        len <<= 1;
      }
    }
  }

  /** Points per cache block: two arrays of this many doubles take 64 KiB. */
  private static final int CACHE_BLOCK = 1 << 12;

  /** One stage of butterflies of the given length over the indices [from, to). */
  private static void stage(double[] re, double[] im, int sign, int len, int from, int to,
      double[] cos, double[] sin, int order) {
    int halfLen = len >> 1;
    int step = order / len;
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

  /**
   * The stages of length len and 2·len in one pass: for each k &lt; len/2 the four points k,
   * k + len/2, k + len, k + 3len/2 of a block of 2·len take their two length-len butterflies
   * (twiddle index k·N/len) and then their two length-2len butterflies (twiddle indices
   * k·N/(2len) and (k + len/2)·N/(2len)), each exactly as {@link #stage} computes it.
   */
  private static void stagePair(double[] re, double[] im, int sign, int len, int from, int to,
      double[] cos, double[] sin, int order) {
    int halfLen = len >> 1;
    int step = order / len;
    int halfStep = step >> 1;
    for (int start = from; start < to; start += 2 * len) {
      for (int k = 0; k < halfLen; k++) {
        int i0 = start + k;
        int i1 = i0 + halfLen;
        int i2 = i0 + len;
        int i3 = i1 + len;
        double wr = cos[k * step];
        double wi = sign * sin[k * step];
        double r0 = re[i0];
        double m0 = im[i0];
        double r2 = re[i2];
        double m2 = im[i2];
        // stage len: (i0, i1) and (i2, i3)
        double xr = re[i1] * wr - im[i1] * wi;
        double xi = re[i1] * wi + im[i1] * wr;
        double r1 = r0 - xr;
        double m1 = m0 - xi;
        r0 += xr;
        m0 += xi;
        xr = re[i3] * wr - im[i3] * wi;
        xi = re[i3] * wi + im[i3] * wr;
        double r3 = r2 - xr;
        double m3 = m2 - xi;
        r2 += xr;
        m2 += xi;
        // stage 2len: (i0, i2) and (i1, i3)
        double vr = cos[k * halfStep];
        double vi = sign * sin[k * halfStep];
        xr = r2 * vr - m2 * vi;
        xi = r2 * vi + m2 * vr;
        re[i2] = r0 - xr;
        im[i2] = m0 - xi;
        re[i0] = r0 + xr;
        im[i0] = m0 + xi;
        vr = cos[(k + halfLen) * halfStep];
        vi = sign * sin[(k + halfLen) * halfStep];
        xr = r3 * vr - m3 * vi;
        xi = r3 * vi + m3 * vr;
        re[i3] = r1 - xr;
        im[i3] = m1 - xi;
        re[i1] = r1 + xr;
        im[i1] = m1 + xi;
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
