package dev.tradeoff.cli.ledger;

import dev.tradeoff.accounting.Shown;
import dev.tradeoff.cli.io.Inputs;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The ledger file of a {@code tradeoff ledger} subcommand, given as its one argument ({@code ledger
 * show team.db}), as {@code --ledger team.db}, or through the environment variable {@value
 * #ENVIRONMENT}. There is no default file: without any of the three the command is refused, so two
 * runs started in two directories never charge two different ledgers by accident.
 */
final class LedgerFile {

  /** The environment variable naming the ledger when no path is given. */
  static final String ENVIRONMENT = "TRADEOFF_LEDGER";

  @Option(names = "--ledger", paramLabel = "PATH",
      description = "The ledger file (or give it as the argument, or set " + ENVIRONMENT + ").")
  Path option;

  @Parameters(arity = "0..1", paramLabel = "LEDGER",
      description = "The ledger file (the same as --ledger).")
  Path argument;

  /** The ledger named on the command line or in the environment, checked for reading. */
  Path toRead() {
    return Inputs.ledgerToRead(flag(), path(System.getenv()));
  }

  /** The ledger named on the command line or in the environment, checked for writing. */
  Path toWrite() {
    return Inputs.ledgerToWrite(flag(), path(System.getenv()));
  }

  /**
   * The ledger given as the argument or {@code --ledger} (both only if they agree), else the one
   * {@code environment} names under {@value #ENVIRONMENT}.
   *
   * @throws IllegalArgumentException if none is given, or the argument and the flag differ
   */
  Path path(Map<String, String> environment) {
    if (option != null && argument != null && !option.equals(argument)) {
      throw new IllegalArgumentException("--ledger " + Shown.value(option.toString())
          + " and the argument " + Shown.value(argument.toString())
          + " name two ledgers; give one");
    }
    Path given = option != null ? option : argument;
    if (given != null) {
      return given;
    }
    String fromEnvironment = environment.get(ENVIRONMENT);
    if (fromEnvironment == null || fromEnvironment.isEmpty()) {
      throw new IllegalArgumentException("no ledger given: name it as the argument (ledger show"
          + " team.db), with --ledger PATH, or in the environment variable " + ENVIRONMENT);
    }
    return Path.of(fromEnvironment);
  }

  private String flag() {
    return option == null && argument == null ? ENVIRONMENT : option != null ? "--ledger"
        : "LEDGER";
  }
}
