package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;

/**
 * ρ-zero-concentrated differential privacy (Bun and Steinke 2016): D_α(M(D) ‖ M(D′)) ≤ ρα for every
 * order α &gt; 1.
 *
 * @param rho ρ ≥ 0
 */
public record ZeroConcentratedDp(double rho) implements PrivacyGuarantee {

  public ZeroConcentratedDp {
    Require.nonNegative("rho", rho);
  }
}
