package dev.tradeoff.cli.options;

import picocli.CommandLine.Option;

/**
 * The {@code --ledger FILE|postgresql://HOST[:PORT]/DB [--dataset NAME]} flags: which budget a
 * command uses, a picocli mixin ({@code @Mixin LedgerTarget ledger}) shared by every command that
 * takes a ledger ({@code label}, {@code aggregate}, {@code tune} and the {@code ledger}
 * subcommands).
 */
public final class LedgerTarget {

  @Option(names = "--ledger", paramLabel = "LEDGER", converter = LedgerLocation.Converter.class,
      description = "Privacy ledger: an SQLite file or postgresql://HOST[:PORT]/DB (credentials"
          + " from PGUSER/PGPASSWORD or ~/.pgpass).")
  LedgerLocation location;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "The dataset whose budget the ledger charges (default "
          + LedgerLocation.DEFAULT_DATASET + ").")
  String dataset;

  /** The {@code --ledger} given, or null. */
  public LedgerLocation location() {
    return location;
  }

  /** The {@code --dataset} given, or null (the default dataset). */
  public String dataset() {
    return dataset;
  }
}
