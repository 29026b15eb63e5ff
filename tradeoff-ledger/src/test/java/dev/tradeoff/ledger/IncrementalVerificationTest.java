package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write verifies only what is new in the chain since its handle last verified it: entries other
 * handles appended and settlements of reservations it saw open. Whatever a handle counts was
 * hash-checked from the genesis; an entry edited after that does not change what the handle
 * counts, and the next verify or open refuses the ledger.
 */
class IncrementalVerificationTest {

  @TempDir Path dir;

  @Test
  void entriesAppendedByAnotherHandleAreVerifiedBeforeTheNextWrite() throws Exception {
    Path file = dir.resolve("two.db");
    try (SqliteLedger a = SqliteLedger.openOrCreate(file, new PureDp(1));
        SqliteLedger b = SqliteLedger.open(file)) {
      a.charge("a1", new PureDp(0.25));
      b.charge("b1", new PureDp(0.25));
      sql(file, "UPDATE tradeoff_charges SET label = 'edited' WHERE id = 2");
      assertThatThrownBy(() -> a.charge("a2", new PureDp(0.25)))
          .isInstanceOf(LedgerFormatException.class)
          .hasMessageContaining("entry #2 does not match its hash");
    }
  }

  @Test
  void aReservationSettledByAnotherHandleCountsAtItsSettledCost() {
    Path file = dir.resolve("settled.db");
    try (SqliteLedger a = SqliteLedger.openOrCreate(file, new PureDp(1));
        SqliteLedger b = SqliteLedger.open(file)) {
      Reservation r = a.reserve("tuning", new PureDp(0.5));
      b.charge("b1", new PureDp(0.25)); // b has verified r open, counted at 0.5
      a.commit(r, new PureDp(0.125));
      // fits only if b counts r at 0.125 now: 0.125 + 0.25 + 0.625 = 1
      assertThat(b.charge("b2", new PureDp(0.625)).id()).isEqualTo(3);
      assertThatThrownBy(() -> b.charge("b3", new PureDp(0.001)))
          .isInstanceOf(BudgetExceededException.class);
    }
  }

  @Test
  void anEntryEditedAfterItWasVerifiedIsNotCountedAsEditedAndIsFoundByVerify() throws Exception {
    Path file = dir.resolve("edited.db");
    try (SqliteLedger l = SqliteLedger.openOrCreate(file, new PureDp(1))) {
      l.charge("big", new PureDp(0.75));
      l.charge("small", new PureDp(0.125));
      // lowering the first charge would leave room for 0.75 more; the handle counts 0.75
      sql(file, "UPDATE tradeoff_charges SET charged = '0.0', reserved = '0.0' WHERE id = 1");
      assertThatThrownBy(() -> l.charge("more", new PureDp(0.5)))
          .isInstanceOf(BudgetExceededException.class);
      assertThatThrownBy(l::verify).isInstanceOf(LedgerFormatException.class)
          .hasMessageContaining("entry #1 does not match its hash");
    }
    assertThatThrownBy(() -> SqliteLedger.open(file)).isInstanceOf(LedgerFormatException.class);
  }

  @Test
  void aFirstWriteVerifiesTheWholeChain() throws Exception {
    Path file = dir.resolve("first.db");
    try (SqliteLedger l = SqliteLedger.openOrCreate(file, new PureDp(1))) {
      l.charge("a", new PureDp(0.25));
      l.charge("b", new PureDp(0.25));
    }
    try (SqliteLedger l = SqliteLedger.open(file)) {
      sql(file, "UPDATE tradeoff_charges SET charged = '0.0' WHERE id = 1");
      assertThatThrownBy(() -> l.charge("c", new PureDp(0.25)))
          .isInstanceOf(LedgerFormatException.class)
          .hasMessageContaining("entry #1's settlement does not match");
    }
  }

  private static void sql(Path file, String statement) throws Exception {
    SqliteFiles.execute(file, statement);
  }
}
