package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several named budgets in one SQLite ledger, and the migration of a single-budget file. */
class SqliteDatasetsTest {

  @TempDir Path dir;

  @Test
  void datasetsOfOneFileHaveTheirOwnBudgetsAndCharges() {
    Path file = dir.resolve("team.db");
    try (SqliteLedger clicks = SqliteLedger.openOrCreate(file, "clicks", new PureDp(1));
        SqliteLedger visits = SqliteLedger.openOrCreate(file, "visits", new PureDp(3))) {
      clicks.charge("first", new PureDp(0.75));
      assertThatThrownBy(() -> clicks.charge("second", new PureDp(0.5)))
          .isInstanceOf(BudgetExceededException.class);
      visits.charge("first", new PureDp(2.5));
      assertThat(clicks.remaining()).isEqualTo(new PureDp(0.25));
      assertThat(visits.remaining()).isEqualTo(new PureDp(0.5));
      assertThat(clicks.entries()).extracting(e -> e.label()).containsExactly("first");
      assertThat(clicks.location()).endsWith("team.db dataset \"clicks\"");
    }
    assertThat(SqliteLedger.exists(file, "clicks")).isTrue();
    assertThat(SqliteLedger.exists(file, "default")).isFalse();
    assertThat(SqliteLedger.exists(dir.resolve("none.db"), "clicks")).isFalse();
    try (SqliteLedger again = SqliteLedger.open(file, "visits")) {
      assertThat(again.budget()).isEqualTo(new PureDp(3));
      assertThat(again.verify().entries()).isEqualTo(1);
    }
    assertThatThrownBy(() -> SqliteLedger.open(file, "sales"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no dataset \"sales\"");
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(file, "clicks", new PureDp(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be changed");
    assertThatThrownBy(() -> SqliteLedger.open(file, "no spaces"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dataset must be");
  }

  @Test
  void anEntryMovedToAnotherDatasetBreaksBothChains() throws Exception {
    Path file = dir.resolve("moved.db");
    try (SqliteLedger a = SqliteLedger.openOrCreate(file, "a", new PureDp(1));
        SqliteLedger b = SqliteLedger.openOrCreate(file, "b", new PureDp(1))) {
      a.charge("a1", new PureDp(0.5));
      b.charge("b1", new PureDp(0.25));
    }
    sql(file, "UPDATE tradeoff_charges SET dataset = 'b' WHERE label = 'a1'");
    assertThatThrownBy(() -> SqliteLedger.open(file, "a"))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("newest entries were deleted");
    assertThatThrownBy(() -> SqliteLedger.open(file, "b"))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("hash chain broken");
  }

  /**
   * {@code schema-v2.db} was written by the schema-version-2 SqliteLedger (the commit before
   * datasets): policy gdp:0.5,basic:0.5 on (8, 1e-5); a Gaussian σ = 5 charge (GDP filter), an
   * open reservation (0.5, 1e-7), a reservation of (1, 1e-7) settled at (0.25, 1e-8) and a
   * cancelled one. Its head hash then was 9d5314b3….
   */
  @Test
  void aSchemaVersionTwoFileBecomesDatasetDefaultWithItsChainIntact() throws Exception {
    Path file = dir.resolve("old.db");
    try (InputStream in = getClass().getResourceAsStream("schema-v2.db")) {
      Files.copy(in, file);
    }
    assertThat(SqliteLedger.exists(file, "default")).isTrue();
    assertThat(SqliteLedger.exists(file, "clicks")).isFalse();
    try (SqliteLedger l = SqliteLedger.open(file)) {
      assertThat(l.verify()).isEqualTo(new PrivacyLedger.Verification(
          "9d5314b3530a514c0f91622ce50ba512595142c805d331cd0df196addf71d117", 4));
      assertThat(l.history()).extracting(r -> r.entry().status()).containsExactly(
          EntryStatus.COMMITTED, EntryStatus.RESERVED, EntryStatus.COMMITTED,
          EntryStatus.CANCELLED);
      assertThat(l.history().get(0).description().event()).isEqualTo(new GaussianEvent(5));
      // basic share 4 minus the open (0.5, 1e-7) and the settled (0.25, 1e-8)
      assertThat(l.remaining()).isEqualTo(new ApproxDp(3.25, 4.89e-6));
      assertThat(l.charge("after migration", new ApproxDp(0.25, 1e-8)).id()).isEqualTo(5);
    }
    assertThat(pragma(file, "user_version")).isEqualTo(SqliteLedger.SCHEMA_VERSION);
    try (SqliteLedger other = SqliteLedger.openOrCreate(file, "clicks", new PureDp(1))) {
      assertThat(other.charge("new dataset", new PureDp(0.5)).id()).isEqualTo(6);
    }
    try (SqliteLedger l = SqliteLedger.open(file, "default")) {
      assertThat(l.verify().entries()).isEqualTo(5);
    }
  }

  @Test
  void aDatasetThatLostItsHeaderIsRefused() throws Exception {
    Path file = dir.resolve("headless.db");
    SqliteLedger.openOrCreate(file, "a", new PureDp(1)).close();
    sql(file, "DELETE FROM tradeoff_ledger WHERE dataset = 'a' AND key = 'budget'");
    assertThatThrownBy(() -> SqliteLedger.open(file, "a"))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("missing ledger field \"budget\"");
  }

  private static void sql(Path file, String statement) throws Exception {
    SqliteFiles.execute(file, statement);
  }

  private static long pragma(Path file, String name) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement(); ResultSet r = s.executeQuery("PRAGMA " + name)) {
      r.next();
      return r.getLong(1);
    }
  }
}
