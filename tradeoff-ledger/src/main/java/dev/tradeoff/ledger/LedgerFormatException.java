package dev.tradeoff.ledger;

/**
 * The file is not a Tradeoff privacy ledger this version can use: not an SQLite database, another
 * application's database, an unknown schema version, or damaged. The file was not modified.
 */
public final class LedgerFormatException extends IllegalArgumentException {

  public LedgerFormatException(String message) {
    super(message);
  }

  public LedgerFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
