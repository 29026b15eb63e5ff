package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteLedgerTest {

  @TempDir Path dir;

  @Test
  void chargesAccumulateAndAreListedWithLabelsAndTimes() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      ledger.charge("count query", new PureDp(0.25));
      ledger.charge("mean query", new PureDp(0.5));
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.75));
      assertThat(ledger.remaining()).isEqualTo(new PureDp(0.25));
      List<LedgerEntry> entries = ledger.entries();
      assertThat(entries).extracting(LedgerEntry::label).containsExactly("count query", "mean query");
      assertThat(entries).allSatisfy(e -> {
        assertThat(e.status()).isEqualTo(EntryStatus.COMMITTED);
        assertThat(e.kind()).isEqualTo(GuaranteeKind.PURE_DP);
        assertThat(e.committedAt()).isPresent();
        assertThat(e.processId()).isEqualTo(ProcessHandle.current().pid());
      });
      assertThat(entries.get(1).charged()).isEqualTo(new PureDp(0.5));
    }
  }

  @Test
  void aChargeThatWouldOverspendIsRefusedWithRequestedAndRemainingAndChargesNothing() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      ledger.charge("first", new PureDp(0.7));
      assertThatThrownBy(() -> ledger.charge("second", new PureDp(0.4)))
          .isInstanceOfSatisfying(BudgetExceededException.class, e -> {
            assertThat(e.requested()).contains(new PureDp(0.4));
            // exactly 1 - 0.7 (as doubles), rounded down: never more than what is left
            double left = ((PureDp) e.remaining()).epsilon();
            assertThat(new java.math.BigDecimal(left))
                .isLessThanOrEqualTo(new java.math.BigDecimal(1.0).subtract(new java.math.BigDecimal(0.7)));
            assertThat(left).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-15));
          })
          .hasMessageContaining("second")
          .hasMessageContaining("requested");
      assertThat(ledger.entries()).hasSize(1);
      assertThatThrownBy(() -> ledger.reserve("third", new PureDp(0.31)))
          .isInstanceOf(BudgetExceededException.class);
      assertThat(ledger.entries()).hasSize(1);
    }
  }

  @Test
  void exactDecimalSumsAdmitTheLastChargeThatExactlyFits() {
    // 0.1 + 0.2 > 0.3 in doubles, and as exact decimals of the doubles too: refused.
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("a.db"), new PureDp(0.3))) {
      ledger.charge("a", new PureDp(0.1));
      assertThatThrownBy(() -> ledger.charge("b", new PureDp(0.2)))
          .isInstanceOf(BudgetExceededException.class);
    }
    // Ten charges of 0.125 (exact in binary) fill a budget of 1.25 exactly.
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("b.db"), new PureDp(1.25))) {
      for (int i = 0; i < 10; i++) {
        ledger.charge("q" + i, new PureDp(0.125));
      }
      assertThat(ledger.remaining()).isEqualTo(new PureDp(0));
      assertThatThrownBy(() -> ledger.charge("more", new PureDp(Double.MIN_VALUE)))
          .isInstanceOf(BudgetExceededException.class);
      ledger.charge("free", new PureDp(0));
    }
  }

  @Test
  void reservationCountsAtWorstCaseUntilCommittedAtTheRealisedCost() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      Reservation r = ledger.reserve("tuning", new PureDp(0.8));
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.8));
      assertThat(ledger.entries().get(0).status()).isEqualTo(EntryStatus.RESERVED);
      assertThat(ledger.entries().get(0).committedAt()).isEmpty();
      assertThatThrownBy(() -> ledger.charge("other", new PureDp(0.3)))
          .isInstanceOf(BudgetExceededException.class);
      LedgerEntry settled = ledger.commit(r, new PureDp(0.2));
      assertThat(settled.charged()).isEqualTo(new PureDp(0.2));
      assertThat(settled.reserved()).isEqualTo(new PureDp(0.8));
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.2));
      ledger.charge("other", new PureDp(0.3));
      assertThatThrownBy(() -> ledger.commit(r, new PureDp(0.1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already settled");
    }
  }

  @Test
  void realisedCostAboveTheReservationIsRefusedAndChangesNothing() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      Reservation r = ledger.reserve("tuning", new PureDp(0.3));
      assertThatThrownBy(() -> ledger.commit(r, new PureDp(0.31)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("exceeds the reservation");
      assertThat(ledger.entries().get(0).status()).isEqualTo(EntryStatus.RESERVED);
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.3));
    }
  }

  @Test
  void cancelledReservationReturnsItsBudgetAndCannotBeCommitted() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      Reservation r = ledger.reserve("never ran", new PureDp(0.9));
      ledger.cancel(r);
      assertThat(ledger.entries()).isEmpty();
      assertThat(ledger.remaining()).isEqualTo(new PureDp(1.0));
      assertThatThrownBy(() -> ledger.commit(r, new PureDp(0.1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already settled");
      // the cancelled row stays in the hash-chained history
      assertThat(ledger.history()).extracting(h -> h.entry().status())
          .containsExactly(dev.tradeoff.accounting.budget.EntryStatus.CANCELLED);
    }
  }

  @Test
  void approximateDpBudgetChecksEpsilonAndDeltaSeparately() {
    try (SqliteLedger ledger =
        SqliteLedger.openOrCreate(dir.resolve("l.db"), new ApproxDp(1.0, 1e-6))) {
      ledger.charge("pure", new PureDp(0.5));
      ledger.charge("gauss", new ApproxDp(0.25, 6e-7));
      assertThatThrownBy(() -> ledger.charge("too much delta", new ApproxDp(0.1, 5e-7)))
          .isInstanceOf(BudgetExceededException.class);
      ledger.charge("fits", new ApproxDp(0.25, 4e-7));
      ApproxDp spent = (ApproxDp) ledger.spent();
      assertThat(spent.epsilon()).isEqualTo(1.0);
      assertThat(spent.delta()).isGreaterThanOrEqualTo(1e-6).isLessThan(1.0000001e-6);
    }
  }

  @Test
  void renyiBudgetAdmitsOnlyRequestsFittingAtEveryOrder() {
    RenyiDp budget = RenyiDp.of(new double[] {2, 8}, new double[] {1.0, 4.0});
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), budget)) {
      ledger.charge("a", RenyiDp.of(new double[] {2, 8}, new double[] {0.5, 1.0}));
      assertThatThrownBy(() -> ledger.charge("b",
              RenyiDp.of(new double[] {2, 8}, new double[] {0.1, 3.5})))
          .isInstanceOf(BudgetExceededException.class);
      // a curve on a finer grid is read at the budget orders through epsilonAt (next larger order)
      ledger.charge("c", RenyiDp.of(new double[] {2, 3, 8}, new double[] {0.5, 0.9, 3.0}));
      assertThat(ledger.spent())
          .isEqualTo(RenyiDp.of(new double[] {2, 8}, new double[] {1.0, 4.0}));
      assertThatThrownBy(() -> ledger.charge("d", new PureDp(0.1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("RENYI_DP");
    }
  }

  @Test
  void reopeningReadsTheStoredBudgetAndRefusesAnotherBudget() {
    Path file = dir.resolve("l.db");
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(file, new PureDp(2.0))) {
      ledger.charge("x", new PureDp(1.5));
    }
    try (SqliteLedger ledger = SqliteLedger.open(file)) {
      assertThat(ledger.budget()).isEqualTo(new PureDp(2.0));
      assertThat(ledger.spent()).isEqualTo(new PureDp(1.5));
    }
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(file, new PureDp(3.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be changed");
    assertThatThrownBy(() -> SqliteLedger.open(dir.resolve("missing.db")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no privacy ledger");
  }

  @Test
  void badInputIsRefusedAndLeavesTheLedgerUnchanged() {
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("l.db"), new PureDp(1.0))) {
      assertThatThrownBy(() -> ledger.charge("neg", new PureDp(-0.1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("epsilon must be >= 0");
      assertThatThrownBy(() -> ledger.charge("nan", new PureDp(Double.NaN)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ledger.charge("inf", new PureDp(Double.POSITIVE_INFINITY)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ledger.charge(" ", new PureDp(0.1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("label");
      assertThatThrownBy(() -> ledger.charge(null, new PureDp(0.1)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ledger.reserve("null", null))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ledger.charge("approx", new ApproxDp(0.1, 1e-9)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("PURE_DP");
      assertThat(ledger.entries()).isEmpty();
    }
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(dir.resolve("m.db"), new PureDp(Double.NaN)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void seededRandomChargeSequencesNeverExceedTheBudgetAndSpentIsTheirSum() {
    SplittableRandom random = new SplittableRandom(20261121L);
    for (int trial = 0; trial < 5; trial++) {
      double budget = 0.5 + random.nextDouble() * 2;
      try (SqliteLedger ledger =
          SqliteLedger.openOrCreate(dir.resolve("r" + trial + ".db"), new PureDp(budget))) {
        java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
        for (int i = 0; i < 20; i++) {
          double eps = random.nextDouble() * 0.4;
          try {
            ledger.charge("q" + i, new PureDp(eps));
            exact = exact.add(new java.math.BigDecimal(eps));
          } catch (BudgetExceededException e) {
            assertThat(exact.add(new java.math.BigDecimal(eps)))
                .isGreaterThan(new java.math.BigDecimal(budget));
          }
        }
        assertThat(exact).isLessThanOrEqualTo(new java.math.BigDecimal(budget));
        double spent = ((PureDp) ledger.spent()).epsilon();
        assertThat(new java.math.BigDecimal(spent)).isGreaterThanOrEqualTo(exact);
        assertThat(spent).isCloseTo(exact.doubleValue(), org.assertj.core.data.Offset.offset(1e-15));
      }
    }
  }
}
