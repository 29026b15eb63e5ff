package dev.tradeoff.cli.aggregate;

import dev.tradeoff.cli.options.Choice;

/** The form of the votes file ({@code --format}), converted when the arguments are parsed. */
enum VoteFormat {
  /** One count column per class. */
  COUNTS,
  /** One column per teacher, holding the class it predicts. */
  PREDICTIONS;

  /** counts or predictions; anything else is the flag's one-line refusal. */
  static final class Converter extends Choice<VoteFormat> {
    Converter() {
      super(VoteFormat.class);
    }
  }
}
