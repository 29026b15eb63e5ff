package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The Laplace mechanism f(D) + Lap(b) on a sensitivity-1 query: (1/b)-DP, with the exact privacy
 * loss distribution of two Laplace laws one unit apart.
 *
 * @param scale the noise scale b &gt; 0 (divided by the sensitivity)
 */
public record LaplaceEvent(double scale) implements DpEvent {
  public LaplaceEvent {
    Require.positive("scale", scale);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.laplace(this);
  }
}
