package dev.tradeoff.accounting.calibration;

import dev.tradeoff.accounting.internal.Require;

/**
 * Laplace scale for k-fold composition under pure DP: Lap(b) on a query of L1 sensitivity Δ is
 * (Δ/b)-DP (Dwork, McSherry, Nissim and Smith 2006), and k of them are (kΔ/b)-DP by basic
 * composition (Dwork and Roth 2014, Theorem 3.16), so b = kΔ/ε. Rounded up: the returned b
 * satisfies kΔ/b ≤ ε in floating point.
 */
public final class LaplaceCalibration {

  private LaplaceCalibration() {}

  /**
   * The smallest scale b such that k releases are ε-DP.
   *
   * @param epsilon total ε &gt; 0
   * @param count k ≥ 1
   * @param sensitivity L1 sensitivity Δ &gt; 0
   */
  public static double scale(double epsilon, int count, double sensitivity) {
    Require.positive("epsilon", epsilon);
    Require.positive("count", count);
    Require.positive("sensitivity", sensitivity);
    double b = count * sensitivity / epsilon;
    while (count * sensitivity / b > epsilon) {
      b = Math.nextUp(b);
    }
    return b;
  }
}
