package dev.tradeoff.cli.options;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.ledger.LedgerPolicy;
import dev.tradeoff.ledger.PostgresLedger;
import dev.tradeoff.ledger.PostgresLocation;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;

/**
 * What {@code --ledger} names: an SQLite file ({@code team.db}) or a PostgreSQL database a team
 * shares ({@code postgresql://HOST[:PORT]/DB}, credentials from {@code PGUSER}/{@code PGPASSWORD}
 * or {@code ~/.pgpass}, never in the value). Either holds one budget per dataset ({@code --dataset
 * NAME}, default {@value #DEFAULT_DATASET}).
 *
 * @param file the SQLite file, or null
 * @param server the PostgreSQL database, or null
 */
public record LedgerLocation(Path file, PostgresLocation server) {

  /** The dataset a command charges when {@code --dataset} is not given. */
  public static final String DEFAULT_DATASET = "default";

  /** Parses a {@code --ledger} value. */
  public static LedgerLocation parse(String text) {
    return PostgresLocation.names(text) ? new LedgerLocation(null, PostgresLocation.parse(text))
        : new LedgerLocation(Path.of(text), null);
  }

  /** picocli's converter for {@code --ledger} options. */
  public static final class Converter implements ITypeConverter<LedgerLocation> {
    @Override
    public LedgerLocation convert(String value) {
      return parse(value);
    }
  }

  /** For a file: checked like {@link Inputs#ledgerToRead}. A database is checked on use. */
  public LedgerLocation toRead(String flag) {
    if (file != null) {
      Inputs.ledgerToRead(flag, file);
    }
    return this;
  }

  /** For a file: checked like {@link Inputs#ledgerToWrite}. A database is checked on use. */
  public LedgerLocation toWrite(String flag) {
    if (file != null) {
      Inputs.ledgerToWrite(flag, file);
    }
    return this;
  }

  /** Whether the ledger (for a database: the dataset) exists already. */
  public boolean exists(String dataset) {
    return file != null ? SqliteLedger.exists(file, dataset(dataset))
        : PostgresLedger.exists(server, dataset(dataset));
  }

  /** Opens an existing ledger's budget for {@code dataset} (null: the default). */
  public PrivacyLedger open(String dataset) {
    return file != null ? SqliteLedger.open(file, dataset(dataset))
        : PostgresLedger.open(server, dataset(dataset));
  }

  /** Opens it, creating it with {@code budget} (basic composition) when it does not exist. */
  public PrivacyLedger openOrCreate(String dataset, PrivacyGuarantee budget) {
    return file != null ? SqliteLedger.openOrCreate(file, dataset(dataset), budget)
        : PostgresLedger.openOrCreate(server, dataset(dataset), budget);
  }

  /** Creates an (ε, δ) budget spent through the filters of {@code policy}. */
  public PrivacyLedger create(String dataset, ApproxDp budget, LedgerPolicy policy) {
    return file != null ? SqliteLedger.create(file, dataset(dataset), budget, policy)
        : PostgresLedger.create(server, dataset(dataset), budget, policy);
  }

  /** The ledger as it may be printed or written to a manifest: never a credential. */
  public String shown() {
    return file != null ? file.toAbsolutePath().toString() : server.toString();
  }

  @Override
  public String toString() {
    return file != null ? file.toString() : server.toString();
  }

  private static String dataset(String dataset) {
    return PrivacyLedger.checkDataset(dataset == null ? DEFAULT_DATASET : dataset);
  }
}
