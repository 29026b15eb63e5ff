package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The same event run {@code count} times adaptively.
 *
 * @param event the repeated event
 * @param count k ≥ 1
 */
public record SelfComposedEvent(DpEvent event, int count) implements DpEvent {
  public SelfComposedEvent {
    Require.nonNull("event", event);
    Require.positive("count", count);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.selfComposed(this);
  }
}
