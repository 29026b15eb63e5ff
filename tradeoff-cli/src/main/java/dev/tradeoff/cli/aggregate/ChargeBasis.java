package dev.tradeoff.cli.aggregate;

import dev.tradeoff.cli.options.Choice;

/** What the ledger is charged ({@code --charge}), converted when the arguments are parsed. */
enum ChargeBasis {
  DATA_INDEPENDENT,
  DATA_DEPENDENT;

  /** data-independent or data-dependent; anything else is the flag's one-line refusal. */
  static final class Converter extends Choice<ChargeBasis> {
    Converter() {
      super(ChargeBasis.class);
    }
  }
}
