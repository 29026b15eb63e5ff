package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The Gaussian mechanism f(D) + N(0, σ²) on a sensitivity-1 (L2) query: exactly (1/σ)-GDP.
 *
 * @param sigma the noise standard deviation σ &gt; 0 (divided by the sensitivity)
 */
public record GaussianEvent(double sigma) implements DpEvent {
  public GaussianEvent {
    Require.positive("sigma", sigma);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.gaussian(this);
  }
}
