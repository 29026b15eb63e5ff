package dev.tradeoff.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/** SQL run on a ledger file directly, as an editor of the file would, past the ledger's API. */
final class SqliteFiles {

  private SqliteFiles() {}

  static void execute(Path file, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }
}
