package dev.tradeoff.cli.aggregate;

import dev.tradeoff.cli.options.Choice;

/**
 * The aggregator of {@code --aggregator}, converted when the arguments are parsed (Papernot et
 * al., <i>Scalable private learning with PATE</i>, ICLR 2018).
 */
enum Aggregation {
  /** GNMax: the noisy arg max of every query. */
  GNMAX,
  /** Confident-GNMax: GNMax where a noisy threshold check on the votes passes. */
  CONFIDENT_GNMAX,
  /** Interactive-GNMax: Confident-GNMax that releases the student's class where both agree. */
  INTERACTIVE_GNMAX;

  /** Whether a noisy threshold check comes before the arg max. */
  boolean confident() {
    return this != GNMAX;
  }

  /** gnmax, confident-gnmax or interactive-gnmax; anything else is the flag's refusal. */
  static final class Converter extends Choice<Aggregation> {
    Converter() {
      super(Aggregation.class);
    }
  }
}
