package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;
import java.util.List;

/**
 * A heterogeneous adaptive sequence of events.
 *
 * @param events at least one event, in the order they ran
 */
public record ComposedEvent(List<DpEvent> events) implements DpEvent {
  public ComposedEvent {
    Require.nonNull("events", events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("events must not be empty");
    }
    events = List.copyOf(events);
  }

  /** Convenience factory. */
  public static ComposedEvent of(DpEvent... events) {
    return new ComposedEvent(List.of(events));
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.composed(this);
  }
}
