package dev.tradeoff.accounting.pld;

/**
 * The loss of a Poisson-subsampled pair: if an outcome has loss u under (P, Q), it has loss
 * log(a·e^u + 1 − a) under (aP + (1−a)Q, Q). Evaluated without overflow or cancellation.
 */
final class MixtureLoss {

  private MixtureLoss() {}

  /** log(a·e^u + 1 − a) for a in (0, 1], u in [−∞, +∞]. */
  static double mixed(double a, double u) {
    if (a == 1 || Double.isInfinite(u) && u > 0) {
      return u;
    }
    if (u == Double.NEGATIVE_INFINITY) {
      return Math.log1p(-a);
    }
    if (u > 1) {
      return u + Math.log(a) + Math.log1p((1 - a) / a * Math.exp(-u));
    }
    return Math.log1p(a * Math.expm1(u));
  }

  /** The inverse of {@link #mixed} in u: log((e^l − 1 + a)/a); −∞ at l = log(1 − a). */
  static double unmixed(double a, double l) {
    if (a == 1) {
      return l;
    }
    if (l > 1) {
      return l - Math.log(a) + Math.log1p((a - 1) * Math.exp(-l));
    }
    double inner = Math.expm1(l) + a;
    return inner <= 0 ? Double.NEGATIVE_INFINITY : Math.log(inner / a);
  }
}
