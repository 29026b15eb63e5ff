package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The discrete Laplace (two-sided geometric) mechanism on an integer query of sensitivity 1, with
 * Pr[Z = z] ∝ e^{−|z|/scale}: (1/scale)-DP.
 *
 * @param scale the noise scale t &gt; 0 (divided by the integer sensitivity)
 */
public record DiscreteLaplaceEvent(double scale) implements DpEvent {
  public DiscreteLaplaceEvent {
    Require.positive("scale", scale);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.discreteLaplace(this);
  }
}
