package dev.tradeoff.accounting.event;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Walks the composition structure of an event tree ({@link SelfComposedEvent} and
 * {@link ComposedEvent}) so that an accountant only has to say what it does with the leaves.
 */
public final class EventTrees {

  private EventTrees() {}

  /**
   * The first reason any leaf is unsupported, in the order the events ran; empty if every leaf is
   * supported. Self-composition and composition themselves are always supported.
   */
  public static Optional<String> firstUnsupportedLeaf(
      DpEvent event, Function<DpEvent, Optional<String>> leafCheck) {
    if (event instanceof SelfComposedEvent s) {
      return firstUnsupportedLeaf(s.event(), leafCheck);
    }
    if (event instanceof ComposedEvent c) {
      for (DpEvent e : c.events()) {
        Optional<String> why = firstUnsupportedLeaf(e, leafCheck);
        if (why.isPresent()) {
          return why;
        }
      }
      return Optional.empty();
    }
    return leafCheck.apply(event);
  }

  /**
   * An additive privacy quantity of the whole tree (zCDP ρ, GDP μ², RDP ε at one order): k times
   * the leaf's value under k-fold self-composition, the sum over a composition.
   */
  public static double additive(DpEvent event, ToDoubleFunction<DpEvent> leafValue) {
    if (event instanceof SelfComposedEvent s) {
      return s.count() * additive(s.event(), leafValue);
    }
    if (event instanceof ComposedEvent c) {
      double total = 0;
      for (DpEvent e : c.events()) {
        total += additive(e, leafValue);
      }
      return total;
    }
    return leafValue.applyAsDouble(event);
  }
}
