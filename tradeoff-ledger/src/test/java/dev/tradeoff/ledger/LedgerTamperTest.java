package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Edited ledgers are refused with one line, and nothing is charged. */
class LedgerTamperTest {

  private static final ApproxDp BUDGET = new ApproxDp(8, 1e-5);

  @TempDir Path dir;

  private Path ledgerWithThreeCharges(String name) {
    Path file = dir.resolve(name);
    try (SqliteLedger l = SqliteLedger.create(file, BUDGET,
        LedgerPolicy.parse("gdp:0.5,basic:0.5", null, 1e-7))) {
      l.charge("a", new Charge(new GaussianEvent(5), new ApproxDp(1, 1e-7)));
      l.charge("b", new ApproxDp(0.5, 1e-7));
      l.charge("c", new Charge(new GaussianEvent(6), new ApproxDp(0.9, 1e-7)));
      assertThat(l.verify().entries()).isEqualTo(3);
    }
    return file;
  }

  private static void sql(Path file, String statement) throws Exception {
    SqliteFiles.execute(file, statement);
  }

  private static long rows(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM tradeoff_charges")) {
      r.next();
      return r.getLong(1);
    }
  }

  private void refusedAndNothingCharged(Path file, long rowsBefore, String message)
      throws Exception {
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining("\n");
    // A handle opened before the edit refuses too, and writes nothing.
    assertThat(rows(file)).isEqualTo(rowsBefore);
  }

  @Test
  void aFlippedByteInAnEntryIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("flip.db");
    try (SqliteLedger open = SqliteLedger.open(file)) {
      // one character of the second entry's description: its epsilon 0.5 becomes 0.1
      sql(file, "UPDATE tradeoff_charges SET description = replace(description,"
          + " '\"epsilon\":0.5', '\"epsilon\":0.1') WHERE id = 2");
      assertThatThrownBy(() -> open.charge("d", new ApproxDp(0.1, 1e-8)))
          .isInstanceOf(LedgerFormatException.class).hasMessageContaining("hash chain broken");
    }
    refusedAndNothingCharged(file, 3, "entry #2 does not match its hash");
  }

  @Test
  void aFlippedChargedAmountIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("charged.db");
    sql(file, "UPDATE tradeoff_charges SET charged = '0.4,1.0E-7' WHERE id = 2");
    refusedAndNothingCharged(file, 3, "settlement does not match");
  }

  @Test
  void aDeletedEntryIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("deleted.db");
    sql(file, "DELETE FROM tradeoff_charges WHERE id = 2");
    refusedAndNothingCharged(file, 2, "hash chain broken");
  }

  @Test
  void aDeletedNewestEntryIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("deleted-last.db");
    sql(file, "DELETE FROM tradeoff_charges WHERE id = 3");
    refusedAndNothingCharged(file, 2, "newest entries were deleted");
  }

  @Test
  void anEditedBudgetIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("budget.db");
    sql(file, "UPDATE tradeoff_ledger SET value = '80.0,1.0E-5' WHERE key = 'budget'");
    refusedAndNothingCharged(file, 3, "recorded budget or policy was edited");
  }

  @Test
  void anEditedPolicyIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("policy.db");
    sql(file, "UPDATE tradeoff_ledger SET value = 'gdp:1' WHERE key = 'policy'");
    refusedAndNothingCharged(file, 3, "recorded budget or policy was edited");
  }

  @Test
  void aForeignSchemaVersionIsRefused() throws Exception {
    Path file = ledgerWithThreeCharges("schema.db");
    sql(file, "PRAGMA user_version = 4");
    refusedAndNothingCharged(file, 3, "schema version 4");
  }

  @Test
  void aVersionOneLedgerIsMigratedToOpaqueBasicChargesAndVerifies() throws Exception {
    Path file = dir.resolve("v1.db");
    sql(file, "PRAGMA application_id = " + SqliteLedger.APPLICATION_ID);
    sql(file, "PRAGMA user_version = 1");
    sql(file, "CREATE TABLE tradeoff_ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql(file, "CREATE TABLE tradeoff_charges (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT"
        + " NULL, kind TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('RESERVED',"
        + " 'COMMITTED')), reserved TEXT NOT NULL, charged TEXT NOT NULL, reserved_at INTEGER NOT"
        + " NULL, committed_at INTEGER, process_id INTEGER NOT NULL)");
    sql(file, "INSERT INTO tradeoff_ledger VALUES ('magic', 'tradeoff-privacy-ledger'),"
        + " ('schema_version', '1'), ('kind', 'APPROX_DP'), ('orders', ''),"
        + " ('budget', '8.0,1.0E-5'), ('created_at', '2024-01-01T00:00:00Z')");
    sql(file, "INSERT INTO tradeoff_charges (label, kind, status, reserved, charged, reserved_at,"
        + " committed_at, process_id) VALUES ('old run', 'APPROX_DP', 'COMMITTED', '2.0,1.0E-6',"
        + " '1.5,1.0E-6', 1000, 2000, 42), ('open', 'APPROX_DP', 'RESERVED', '1.0,1.0E-7',"
        + " '1.0,1.0E-7', 3000, NULL, 43)");
    try (SqliteLedger l = SqliteLedger.open(file)) {
      assertThat(l.policy().orElseThrow().text()).isEqualTo("basic:1");
      assertThat(l.entries()).hasSize(2);
      assertThat(l.history()).allSatisfy(h -> {
        assertThat(h.description().filter()).isEqualTo(FilterKind.BASIC);
        assertThat(h.description().event()).isNull();
      });
      assertThat(l.remaining()).isEqualTo(new ApproxDp(5.5, 8.9e-6));
      assertThat(l.verify().entries()).isEqualTo(2);
      l.charge("new", new ApproxDp(1, 1e-7));
    }
    try (SqliteLedger l = SqliteLedger.open(file)) {
      assertThat(l.verify().entries()).isEqualTo(3);
    }
  }
}
