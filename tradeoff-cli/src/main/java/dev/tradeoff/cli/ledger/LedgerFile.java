package dev.tradeoff.cli.ledger;

import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.cli.options.LedgerLocation;
import dev.tradeoff.cli.options.LedgerTarget;
import dev.tradeoff.ledger.PrivacyLedger;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The ledger of a {@code tradeoff ledger} subcommand, given as its one argument ({@code ledger
 * show team.db}), as {@code --ledger team.db}, or through the environment variable {@value
 * #ENVIRONMENT}; a file or {@code postgresql://HOST[:PORT]/DB} ({@link LedgerLocation}), with
 * {@code --dataset NAME} for one of its budgets. There is no default ledger: without any of the
 * three the command is refused, so two runs started in two directories never charge two different
 * ledgers by accident.
 */
final class LedgerFile {

  /** The environment variable naming the ledger when no path is given. */
  static final String ENVIRONMENT = "TRADEOFF_LEDGER";

  @Mixin LedgerTarget target = new LedgerTarget();

  @Parameters(arity = "0..1", paramLabel = "LEDGER", converter = LedgerLocation.Converter.class,
      description = "The ledger (the same as --ledger; or set " + ENVIRONMENT + ").")
  LedgerLocation argument;

  /** The {@code --dataset} given, or null (the default dataset). */
  String dataset() {
    return target.dataset();
  }

  /** The ledger named on the command line or in the environment, checked for reading. */
  LedgerLocation toRead() {
    return path(System.getenv()).toRead(flag());
  }

  /** The ledger named on the command line or in the environment, checked for writing. */
  LedgerLocation toWrite() {
    return path(System.getenv()).toWrite(flag());
  }

  /** The budget of {@code --dataset} in the named ledger, opened. */
  PrivacyLedger open() {
    return toRead().open(target.dataset());
  }

  /**
   * The ledger given as the argument or {@code --ledger} (both only if they agree), else the one
   * {@code environment} names under {@value #ENVIRONMENT}.
   *
   * @throws IllegalArgumentException if none is given, or the argument and the flag differ
   */
  LedgerLocation path(Map<String, String> environment) {
    LedgerLocation option = target.location();
    if (option != null && argument != null && !option.equals(argument)) {
      throw new IllegalArgumentException("--ledger " + Shown.value(option.toString())
          + " and the argument " + Shown.value(argument.toString())
          + " name two ledgers; give one");
    }
    LedgerLocation given = option != null ? option : argument;
    if (given != null) {
      return given;
    }
    String fromEnvironment = environment.get(ENVIRONMENT);
    if (fromEnvironment == null || fromEnvironment.isEmpty()) {
      throw new IllegalArgumentException("no ledger given: name it as the argument (ledger show"
          + " team.db), with --ledger PATH, or in the environment variable " + ENVIRONMENT);
    }
    return LedgerLocation.parse(fromEnvironment);
  }

  private String flag() {
    LedgerLocation option = target.location();
    return option == null && argument == null ? ENVIRONMENT : option != null ? "--ledger"
        : "LEDGER";
  }
}
