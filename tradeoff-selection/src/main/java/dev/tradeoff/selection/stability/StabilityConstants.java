package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.internal.Require;

/**
 * (β₁, β₂, δ)-stability of a validation score ([StabVal13]; definition
 * reconstructed from the appendix, see the package documentation): with probability ≥ 1 − δ/k per
 * training draw, changing one of n training points moves the score by at most β₁/n and changing one
 * of m validation points by at most β₂/m.
 *
 * @param beta1 training-stability constant β₁ ≥ 0
 * @param beta2 validation-stability constant β₂ ≥ 0
 * @param delta failure probability δ in [0, 1) over all k candidates together
 */
public record StabilityConstants(double beta1, double beta2, double delta) {

  public StabilityConstants {
    Require.nonNegative("beta1", beta1);
    Require.nonNegative("beta2", beta2);
    Require.delta("delta", delta);
  }

  /**
   * β = max(β₁/n, β₂/m), the largest move of any score between neighbours, rounded up (it scales
   * the noise of Algorithm 1).
   *
   * @param n training-set size
   * @param m validation-set size
   */
  public double beta(int n, int m) {
    Require.positive("n", n);
    Require.positive("m", m);
    double b = Math.max(beta1 / n, beta2 / m);
    return b == 0 ? 0 : Math.nextUp(b);
  }
}
