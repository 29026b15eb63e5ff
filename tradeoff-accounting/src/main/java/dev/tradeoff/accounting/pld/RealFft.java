package dev.tradeoff.accounting.pld;

/**
 * The FFT of a real sequence of even length n through one complex FFT of length n/2 (the
 * even/odd packing z_j = x_{2j} + i·x_{2j+1}). The spectrum of a real sequence is Hermitian,
 * X_{n−k} = conj(X_k), so only X_0 … X_{n/2} are stored; products and powers of such spectra stay
 * Hermitian and transform back to real sequences.
 *
 * <p>Round-off: the half-length transform obeys {@link Fft#relativeErrorBound()}; the packing and
 * unpacking cost O(1) flops per entry with one twiddle factor, adding at most a few u relative to
 * ‖X‖₂. {@link #relativeErrorBound()} doubles the half-length bound and adds 16u, which covers both.
 * Entry by entry the same constant times ‖x‖₁ bounds |X̂_k − X_k|: the packed sequence has
 * ‖z‖₁ ≤ ‖x‖₁, each of E and O (the transforms of the even and odd samples, of modulus at most
 * ‖x‖₁) carries at most the half-length entry error, and the unpacking rounds a few times.
 * The packing writes the half-length input straight into bit-reversed order, so the complex
 * transform needs no separate permutation pass (the same values in the same places).
 */
final class RealFft {

  private final int size;
  private final Fft half;
  private final double[] cos;
  private final double[] sin;

  /** @param size a power of two ≥ 4 */
  RealFft(int size) {
    if (size < 4 || Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two >= 4, but was " + size);
    }
    this.size = size;
    this.half = new Fft(size / 2);
    int quarterPlus = size / 2 + 1;
    cos = new double[quarterPlus];
    sin = new double[quarterPlus];
    Fft.unitRoots(size, cos, sin);
  }

  int size() {
    return size;
  }

  /** Bound on ‖X̂ − X‖₂/‖X‖₂ over the full spectrum (see class Javadoc). */
  double relativeErrorBound() {
    return 2 * half.relativeErrorBound() + 16 * Fft.UNIT_ROUNDOFF;
  }

  /**
   * X_k = Σ_j x_j e^{−2πijk/n} for k = 0 … n/2.
   *
   * @param x n real values (not modified)
   * @return {re, im}, each of length n/2 + 1
   */
  double[][] forward(double[] x) {
    int m = size / 2;
    // A zero-padded input (a term shorter than the window) packs into z_j = +0.0 for j ≥ used,
    // so the half-length transform's first stages only copy: with used ≤ m/2^s each aligned
    // group of 2^s bit-reversed points holds copies of its first (see Fft#forwardFromBitReversed;
    // a −0.0 among the used values, which those stages would turn into +0.0, runs them all).
    int top = x.length - 1;
    while (top >= 0 && Double.doubleToRawLongBits(x[top]) == 0) {
      top--;
    }
    int used = Math.max(1, top / 2 + 1);
    boolean negativeZero = false;
    for (int i = 0; i <= top; i++) {
      negativeZero |= Double.doubleToRawLongBits(x[i]) == Long.MIN_VALUE;
    }
    int trivial = 0;
    while (!negativeZero && trivial < Integer.numberOfTrailingZeros(m)
        && used <= m >> (trivial + 1)) {
      trivial++;
    }
    int group = 1 << trivial;
    double[] zr = new double[m];
    double[] zi = new double[m];
    for (int j = 0; j < used; j++) {
      int r = half.reversed(j);
      java.util.Arrays.fill(zr, r, r + group, x[2 * j]);
      java.util.Arrays.fill(zi, r, r + group, x[2 * j + 1]);
    }
    half.forwardFromBitReversed(zr, zi, trivial);
    double[] re = new double[m + 1];
    double[] im = new double[m + 1];
    for (int k = 0; k <= m; k++) {
      int a = k % m;
      int b = (m - k) % m;
      // E = (Z_k + conj Z_{m−k})/2, O = (Z_k − conj Z_{m−k})/(2i)
      double er = 0.5 * (zr[a] + zr[b]);
      double ei = 0.5 * (zi[a] - zi[b]);
      double or = 0.5 * (zi[a] + zi[b]);
      double oi = -0.5 * (zr[a] - zr[b]);
      // X_k = E + e^{−2πik/n} O
      double wr = cos[k];
      double wi = -sin[k];
      re[k] = er + wr * or - wi * oi;
      im[k] = ei + wr * oi + wi * or;
    }
    return new double[][] {re, im};
  }

  /**
   * The real sequence whose Hermitian spectrum has X_0 … X_{n/2} = (re, im), i.e. x_j =
   * (1/n) Σ_k X_k e^{2πijk/n}.
   */
  double[] inverse(double[] re, double[] im) {
    int m = size / 2;
    double[] zr = new double[m];
    double[] zi = new double[m];
    for (int k = 0; k < m; k++) {
      int b = m - k;
      // E = (X_k + conj X_{m−k})/2, O = (X_k − conj X_{m−k}) e^{2πik/n}/2, Z = E + iO
      double er = 0.5 * (re[k] + re[b]);
      double ei = 0.5 * (im[k] - im[b]);
      double dr = 0.5 * (re[k] - re[b]);
      double di = 0.5 * (im[k] + im[b]);
      double wr = cos[k];
      double wi = sin[k];
      double or = dr * wr - di * wi;
      double oi = dr * wi + di * wr;
      int r = half.reversed(k);
      zr[r] = er - oi;
      zi[r] = ei + or;
    }
    half.inverseFromBitReversed(zr, zi);
    double[] x = new double[size];
    for (int j = 0; j < m; j++) {
      x[2 * j] = zr[j];
      x[2 * j + 1] = zi[j];
    }
    return x;
  }
}
