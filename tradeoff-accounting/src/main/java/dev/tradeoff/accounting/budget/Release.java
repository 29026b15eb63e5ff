package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.internal.Require;

/**
 * One private transform applied in a pipeline: its step name and what it releases.
 *
 * @param name the Beam step name
 * @param event the accounting event of all of its releases
 */
public record Release(String name, DpEvent event) {
  public Release {
    Require.nonNull("name", name);
    Require.nonNull("event", event);
  }
}
