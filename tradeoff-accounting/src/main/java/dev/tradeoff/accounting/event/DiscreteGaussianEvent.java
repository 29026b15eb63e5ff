package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The discrete Gaussian mechanism (Canonne, Kamath and Steinke 2020) on an integer query of
 * sensitivity 1, with Pr[Z = z] ∝ e^{−z²/(2σ²)}: (1/(2σ²))-zCDP.
 *
 * @param sigma the scale parameter σ &gt; 0 (divided by the integer sensitivity)
 */
public record DiscreteGaussianEvent(double sigma) implements DpEvent {
  public DiscreteGaussianEvent {
    Require.positive("sigma", sigma);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.discreteGaussian(this);
  }
}
