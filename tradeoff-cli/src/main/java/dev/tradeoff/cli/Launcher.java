package dev.tradeoff.cli;

import java.util.Optional;

/**
 * The jar's entry point. {@code tradeoff}, {@code --help} and {@code --version} print what the
 * build rendered ({@link HelpText}) and exit; every other run is {@link TradeoffCommand#main}'s.
 * A class of its own, so that those answers load neither picocli's command line nor the commands.
 */
public final class Launcher {

  private Launcher() {}

  public static void main(String[] args) {
    Optional<byte[]> answer = HelpText.answer(args, HelpText::styled);
    if (answer.isPresent()) {
      System.out.write(answer.get(), 0, answer.get().length);
      System.out.flush();
      System.exit(0);
    }
    TradeoffCommand.main(args);
  }
}
