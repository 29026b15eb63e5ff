package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * μ-Gaussian differential privacy (Dong, Roth and Su 2022): the trade-off function of M is at least
 * G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), the curve of testing N(0, 1) against N(μ, 1). [ShuffleGDP21,
 * Definition 2.3].
 *
 * @param mu μ ≥ 0
 */
public record GaussianDp(double mu) implements PrivacyGuarantee {

  public GaussianDp {
    Require.nonNegative("mu", mu);
  }
}
