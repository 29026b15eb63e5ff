package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.numerics.LogMath;

/**
 * The Binomial(m, p) masses above a cut, in linear space: mass[i] = P(X = offset + i) for the
 * contiguous range around the mode where P ≥ tail/(m + 1). The pmf is unimodal, so every dropped
 * mass is below tail/(m + 1) and the dropped total is at most tail
 * ({@link #missingMassBound()}). Masses come from one log-space evaluation at the mode
 * ({@link LogMath#logBinomialPmf}) and the ratio recurrence outwards (relative error ~ width·ulp).
 */
record TruncatedBinomial(int offset, double[] mass, double missingMassBound) {

  static TruncatedBinomial of(int m, double p, double tail) {
    if (m == 0) {
      return new TruncatedBinomial(0, new double[] {1}, 0);
    }
    double cut = tail / (m + 1.0);
    int mode = (int) Math.min(m, Math.floor((m + 1.0) * p));
    double atMode = Math.exp(LogMath.logBinomialPmf(m, mode, p));
    double odds = p / (1 - p);
    // Upwards: P(k + 1) = P(k) (m − k)/(k + 1) · p/(1 − p); downwards the inverse ratio.
    double[] up = new double[16];
    int nUp = 0;
    double v = atMode;
    for (int k = mode; k < m; k++) {
      v *= (double) (m - k) / (k + 1) * odds;
      if (v < cut) {
        break;
      }
      if (nUp == up.length) {
        up = java.util.Arrays.copyOf(up, 2 * nUp);
      }
      up[nUp++] = v;
    }
    double[] down = new double[16];
    int nDown = 0;
    v = atMode;
    for (int k = mode; k > 0; k--) {
      v *= (double) k / (m - k + 1) / odds;
      if (v < cut) {
        break;
      }
      if (nDown == down.length) {
        down = java.util.Arrays.copyOf(down, 2 * nDown);
      }
      down[nDown++] = v;
    }
    int lo = mode - nDown;
    int hi = mode + nUp;
    double[] mass = new double[hi - lo + 1];
    for (int i = 0; i < nDown; i++) {
      mass[nDown - 1 - i] = down[i];
    }
    mass[nDown] = atMode;
    System.arraycopy(up, 0, mass, nDown + 1, nUp);
    boolean truncated = lo > 0 || hi < m;
    return new TruncatedBinomial(lo, mass, truncated ? tail : 0);
  }

  /** The masses of m − X (X reflected): P(m − X = offset' + i). */
  TruncatedBinomial reflected(int m) {
    double[] r = new double[mass.length];
    for (int i = 0; i < mass.length; i++) {
      r[i] = mass[mass.length - 1 - i];
    }
    return new TruncatedBinomial(m - (offset + mass.length - 1), r, missingMassBound);
  }

  /** The (truncated) distribution of the sum of two independent variables. */
  TruncatedBinomial convolve(TruncatedBinomial other) {
    double[] a = mass;
    double[] b = other.mass;
    double[] c = new double[a.length + b.length - 1];
    for (int i = 0; i < a.length; i++) {
      double ai = a[i];
      for (int j = 0; j < b.length; j++) {
        c[i + j] += ai * b[j];
      }
    }
    return new TruncatedBinomial(offset + other.offset, c,
        missingMassBound + other.missingMassBound);
  }
}
