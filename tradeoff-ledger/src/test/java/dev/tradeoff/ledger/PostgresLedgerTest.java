package dev.tradeoff.ledger;

import static dev.tradeoff.ledger.PostgresServer.ANALYST;
import static dev.tradeoff.ledger.PostgresServer.OTHER_ANALYST;
import static dev.tradeoff.ledger.PostgresServer.OWNER;
import static dev.tradeoff.ledger.PostgresServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL ledger against a real server: the same semantics and entry format as the SQLite
 * ledger, budgets per dataset, and roles enforced by the database (checked with the analyst's own
 * SQL, not only through the client).
 */
class PostgresLedgerTest extends PostgresServerTest {

  @TempDir Path dir;

  @Test
  void verifyingWhileAnotherClientChargesSeesOneConsistentChain() throws Exception {
    try (PostgresLedger writer = PostgresLedger.openOrCreate(server.location(), "busy",
        new PureDp(1.0), as(OWNER))) {
      Thread charging = new Thread(() -> {
        for (int i = 0; i < 150; i++) {
          writer.charge("charge " + i, new PureDp(1e-4));
        }
      });
      charging.start();
      long seen = 0;
      while (charging.isAlive()) {
        try (PostgresLedger reader = PostgresLedger.open(server.location(), "busy", as(OWNER))) {
          long entries = reader.verify().entries();
          assertThat(entries).isGreaterThanOrEqualTo(seen);
          seen = entries;
        }
      }
      charging.join();
      assertThat(writer.verify().entries()).isEqualTo(150);
    }
  }

  @Test
  void reserveCommitCancelAndChargeBehaveAsInTheSqliteLedger() {
    try (PostgresLedger ledger = PostgresLedger.openOrCreate(server.location(), "semantics",
        new PureDp(1.0), as(OWNER))) {
      Reservation r = ledger.reserve("tuning", new PureDp(0.8));
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.8));
      assertThatThrownBy(() -> ledger.charge("other", new PureDp(0.3)))
          .isInstanceOf(BudgetExceededException.class);
      LedgerEntry settled = ledger.commit(r, new PureDp(0.2));
      assertThat(settled.charged()).isEqualTo(new PureDp(0.2));
      // a retried commit at the same cost returns the settled entry and charges nothing more
      assertThat(ledger.commit(r, new PureDp(0.2)).id()).isEqualTo(settled.id());
      assertThatThrownBy(() -> ledger.commit(r, new PureDp(0.1)))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("already settled");
      Reservation never = ledger.reserve("never ran", new PureDp(0.5));
      ledger.cancel(never);
      ledger.cancel(never);
      ledger.charge("other", new PureDp(0.3));
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.5));
      assertThat(ledger.entries()).extracting(LedgerEntry::status)
          .containsExactly(EntryStatus.COMMITTED, EntryStatus.COMMITTED);
      assertThat(ledger.history()).extracting(h -> h.entry().status()).containsExactly(
          EntryStatus.COMMITTED, EntryStatus.CANCELLED, EntryStatus.COMMITTED);
      assertThat(ledger.verify().entries()).isEqualTo(3);
    }
    assertThatThrownBy(() -> PostgresLedger.openOrCreate(server.location(), "semantics",
        new PureDp(2.0), as(OWNER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a ledger's budget cannot be changed");
  }

  @Test
  void entriesAreRecordedExactlyAsInTheSqliteLedgerAndFilterAlike() {
    ApproxDp budget = new ApproxDp(8, 1e-5);
    LedgerPolicy policy = LedgerPolicy.defaults(budget);
    Charge gauss = new Charge(new GaussianEvent(5), new ApproxDp(1, 1e-7));
    Charge sgd = Charge.of(new SelfComposedEvent(
        new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 100), 1e-7);
    try (SqliteLedger file = SqliteLedger.create(dir.resolve("same.db"), budget, policy);
        PostgresLedger team = PostgresLedger.create(server.location(), "same-format", budget,
            policy, as(OWNER))) {
      for (PrivacyLedger l : List.of(file, team)) {
        l.charge("gauss", gauss, "tradeoff ledger charge ...");
        l.charge("sgd", sgd);
        l.charge("opaque", new ApproxDp(0.5, 1e-8));
      }
      assertThat(team.history()).extracting(PrivacyLedger.LedgerRecord::description)
          .isEqualTo(file.history().stream().map(PrivacyLedger.LedgerRecord::description)
              .toList());
      assertThat(team.remainingByFilter()).usingRecursiveComparison()
          .isEqualTo(file.remainingByFilter());
      assertThat(team.remaining()).isEqualTo(file.remaining());
      assertThat(team.fits(sgd, 1_000_000)).isEqualTo(file.fits(sgd, 1_000_000));
    }
  }

  @Test
  void eachDatasetHasItsOwnBudget() {
    try (PostgresLedger a = PostgresLedger.openOrCreate(server.location(), "clicks",
        new PureDp(1.0), as(OWNER));
        PostgresLedger b = PostgresLedger.openOrCreate(server.location(), "purchases",
            new PureDp(0.5), as(OWNER))) {
      a.charge("all of clicks", new PureDp(1.0));
      b.charge("some of purchases", new PureDp(0.25));
      assertThat(a.remaining()).isEqualTo(new PureDp(0));
      assertThat(b.remaining()).isEqualTo(new PureDp(0.25));
      assertThat(b.entries()).hasSize(1);
    }
    assertThatThrownBy(() -> PostgresLedger.open(server.location(), "nowhere", as(OWNER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no dataset \"nowhere\"");
  }

  @Test
  void anAnalystMayChargeAndReadAGrantedDatasetAndNothingElse() throws Exception {
    PostgresLedger.openOrCreate(server.location(), "granted", new PureDp(1.0), as(OWNER))
        .close();
    PostgresLedger.openOrCreate(server.location(), "private", new PureDp(1.0), as(OWNER))
        .close();
    PostgresLedger.grant(server.location(), "granted", ANALYST, as(OWNER));
    long privateEntry;
    try (PostgresLedger owner = PostgresLedger.open(server.location(), "private", as(OWNER))) {
      privateEntry = owner.charge("owner's own", new PureDp(0.125)).id();
    }
    try (PostgresLedger analyst = PostgresLedger.open(server.location(), "granted",
        as(ANALYST))) {
      Reservation r = analyst.reserve("analyst reserves", new PureDp(0.5));
      analyst.commit(r, new PureDp(0.25));
      analyst.charge("analyst charges", new PureDp(0.25));
      assertThat(analyst.remaining()).isEqualTo(new PureDp(0.5));
    }

    // through the client: one line naming what was refused
    assertThatThrownBy(() -> PostgresLedger.open(server.location(), "private", as(ANALYST)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no dataset \"private\"").hasMessageContaining(ANALYST);
    assertThatThrownBy(() -> PostgresLedger.openOrCreate(server.location(), "mine",
        new PureDp(5.0), as(ANALYST)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("refused it: permission denied for table tradeoff_ledger");
    assertThatThrownBy(() -> PostgresLedger.grant(server.location(), "granted", OTHER_ANALYST,
        as(ANALYST)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused it");
    assertThatThrownBy(() -> PostgresLedger.open(server.location(), "granted",
        as(OTHER_ANALYST))).isInstanceOf(IllegalArgumentException.class);

    // against the database directly, with the analyst's own SQL
    try (Connection c = server.connect(ANALYST)) {
      refused(c, "UPDATE tradeoff_ledger SET value = '1E+100' WHERE dataset = 'granted'"
          + " AND key = 'budget'", "permission denied for table tradeoff_ledger");
      refused(c, "INSERT INTO tradeoff_ledger VALUES ('granted', 'budget2', '100')",
          "permission denied for table tradeoff_ledger");
      refused(c, "DELETE FROM tradeoff_entries WHERE dataset = 'granted'",
          "permission denied for table tradeoff_entries");
      refused(c, "UPDATE tradeoff_settlements SET charged = '0'",
          "permission denied for table tradeoff_settlements");
      refused(c, "TRUNCATE tradeoff_entries", "permission denied for table tradeoff_entries");
      // charging another dataset: row-level security refuses the row
      refused(c, "INSERT INTO tradeoff_entries (id, dataset, label, kind, reserved, reserved_at,"
          + " process_id, filter, description, hash, prev_hash, request_key) VALUES"
          + " (nextval('tradeoff_entry_ids'), 'private', 'x', 'PURE_DP', '1', 0, 0, NULL, '{}',"
          + " 'h', 'p', 'k')", "violates row-level security policy");
      refused(c, "INSERT INTO tradeoff_settlements VALUES (" + privateEntry + ", 'private',"
          + " 'CANCELLED', '0', 0, 's')", "violates row-level security policy");
      // another dataset is not even visible
      assertThat(count(c, "SELECT count(*) FROM tradeoff_entries WHERE dataset = 'private'"))
          .isZero();
      assertThat(count(c, "SELECT count(*) FROM tradeoff_ledger WHERE dataset = 'private'"))
          .isZero();
      assertThat(count(c, "SELECT count(*) FROM tradeoff_entries WHERE dataset = 'granted'"))
          .isEqualTo(2);
    }
    // the owner cannot rewrite history either: a trigger refuses UPDATE, DELETE and TRUNCATE
    try (Connection c = server.connect(OWNER)) {
      refused(c, "UPDATE tradeoff_ledger SET value = '1E+100' WHERE key = 'budget'",
          "UPDATE on tradeoff_ledger refused: the privacy ledger is append-only");
      refused(c, "DELETE FROM tradeoff_settlements",
          "DELETE on tradeoff_settlements refused: the privacy ledger is append-only");
      refused(c, "TRUNCATE tradeoff_entries CASCADE",
          "TRUNCATE on tradeoff_entries refused: the privacy ledger is append-only");
      refused(c, "INSERT INTO tradeoff_settlements SELECT entry_id, dataset, 'COMMITTED', '0',"
          + " 0, 's' FROM tradeoff_settlements LIMIT 1", "duplicate key value");
    }
    try (PostgresLedger owner = PostgresLedger.open(server.location(), "granted", as(OWNER))) {
      assertThat(owner.verify().entries()).isEqualTo(2);
      assertThat(owner.spent()).isEqualTo(new PureDp(0.5));
    }
  }

  @Test
  void aLocationWithCredentialsIsRefusedWithoutEchoingThem() {
    assertThat(PostgresLocation.parse("postgresql://db.example.org/team"))
        .isEqualTo(new PostgresLocation("db.example.org", 5432, "team"));
    assertThat(PostgresLocation.parse("postgresql://10.0.0.5:6543/team").toString())
        .isEqualTo("postgresql://10.0.0.5:6543/team");
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://bob:s3cret@db/team"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("credentials come only from PGUSER/PGPASSWORD or ~/.pgpass")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://db/team?password=s3cret"))
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> PostgresLocation.parse("postgresql://db:99999/team"))
        .hasMessageContaining("port must be in [1, 65535], but was 99999");
    assertThat(server.location().properties(java.util.Map.of("PGUSER", "u", "PGPASSWORD", "p"))
        .getProperty("password")).isEqualTo("p");
  }

  private static void refused(Connection c, String sql, String message) {
    assertThatThrownBy(() -> {
      try (Statement s = c.createStatement()) {
        s.execute(sql);
      }
    }).isInstanceOf(SQLException.class).hasMessageContaining(message);
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }
}
