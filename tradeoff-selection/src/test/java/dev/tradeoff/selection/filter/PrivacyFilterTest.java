package dev.tradeoff.selection.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.ledger.LedgerPolicy;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Algorithm 4 and its pure / approximate counterparts, over the in-memory and SQLite stores. */
class PrivacyFilterTest {

  /** An ex-post mechanism whose output is its own ε̃ (outputs in [0, sup]). */
  private static ExPostDp<Double> selfReporting(double sup) {
    return ExPostDp.pure(o -> o, sup);
  }

  private static double eps(Object g) {
    return ((PureDp) g).epsilon();
  }

  @Test
  void pureFilterAdmitsOnTheWorstCaseButChargesTheRealisedEpsilon() {
    PureDpFilter filter = new PureDpFilter(new InMemoryBudgetStore(new PureDp(1.0)));
    assertThat(filter.answer("a", selfReporting(0.8), () -> 0.1)).isEqualTo(0.1);
    assertThat(filter.remainingEpsilon()).isCloseTo(0.9, within(1e-12));
    filter.answer("b", selfReporting(0.85), () -> 0.2);
    assertThat(filter.remainingEpsilon()).isCloseTo(0.7, within(1e-12));
    AtomicInteger ran = new AtomicInteger();
    assertThatThrownBy(() -> filter.answer("c", selfReporting(0.75), () -> (double) ran.incrementAndGet()))
        .isInstanceOfSatisfying(
            BudgetExceededException.class,
            e -> {
              assertThat(eps(e.requested().orElseThrow())).isEqualTo(0.75);
              assertThat(eps(e.remaining())).isCloseTo(0.7, within(1e-12)).isLessThanOrEqualTo(0.7);
            });
    assertThat(ran).hasValue(0);
    assertThat(filter.remainingEpsilon()).isCloseTo(0.7, within(1e-12));
  }

  @Test
  void aCrashingMechanismChargesNothingAndAnInvalidEpsilonChargesTheWorstCase() {
    InMemoryBudgetStore store = new InMemoryBudgetStore(new PureDp(1.0));
    PureDpFilter filter = new PureDpFilter(store);
    assertThatThrownBy(() -> filter.answer("crash", selfReporting(0.5), () -> {
      throw new IllegalStateException("boom");
    })).hasMessage("boom");
    assertThat(eps(store.spent())).isZero();
    assertThat(store.entries()).isEmpty();
    assertThatThrownBy(() -> filter.answer("lies", selfReporting(0.5), () -> 0.9))
        .isInstanceOf(IllegalStateException.class);
    assertThat(eps(store.spent())).isEqualTo(0.5);
    assertThat(store.entries()).extracting(LedgerEntry::label).containsExactly("lies");
    assertThat(store.entries()).extracting(LedgerEntry::status).containsExactly(EntryStatus.COMMITTED);
  }

  @Test
  void renyiFilterKeepsTheOrderAndTakesPureRequestsThroughLemma7() {
    RenyiFilter filter = new RenyiFilter(new InMemoryBudgetStore(RenyiDp.ofOrder(4, 2.0)));
    filter.answer("rdp", new ExPostRdp<Double>(4, o -> o, 1.5), () -> 0.5);
    filter.answer("pure", selfReporting(1.5), () -> 1.0);
    assertThat(((RenyiDp) filter.remaining()).epsilonAt(4)).isCloseTo(0.5, within(1e-12));
    assertThatThrownBy(() -> filter.answer("wrong order", new ExPostRdp<Double>(2, o -> o, 0.1), () -> 0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must equal the filter order 4.0");
    assertThatThrownBy(() -> filter.answer("too much", new ExPostRdp<Double>(4, o -> o, 0.6), () -> 0.1))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(filter.guarantee(1e-6).epsilon())
        .isGreaterThanOrEqualTo(2 + Math.log(1e6) / 3)
        .isCloseTo(2 + Math.log(1e6) / 3, within(1e-12));
    assertThat(filter.guarantee().epsilonAt(4)).isEqualTo(2.0);
  }

  @Test
  void renyiFilterRunsOnTheExPostShareOfAnEpsilonDeltaLedger(@TempDir Path dir) {
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("l.db"), new ApproxDp(8, 1e-5),
        LedgerPolicy.parse("rdp:0.8,expost@16:0.2", null, 1e-7))) {
      RenyiFilter filter = new RenyiFilter(ledger);
      assertThat(filter.alpha()).isEqualTo(16);
      double before = ledger.exPostRemaining().epsilon(0);
      filter.answer("tune", new ExPostRdp<Double>(16, o -> o, 0.4), () -> 0.1);
      filter.answer("pure", selfReporting(0.3), () -> 0.2);
      assertThat(ledger.exPostRemaining().epsilon(0)).isCloseTo(before - 0.3, within(1e-12));
      assertThat(ledger.entries()).extracting(LedgerEntry::charged)
          .containsExactly(RenyiDp.ofOrder(16, 0.1), RenyiDp.ofOrder(16, 0.2));
      assertThatThrownBy(filter::guarantee).isInstanceOf(IllegalStateException.class);
    }
    try (SqliteLedger noExPost = SqliteLedger.create(dir.resolve("n.db"), new ApproxDp(8, 1e-5),
        LedgerPolicy.parse("rdp:0.8,basic:0.2", null, 1e-7))) {
      assertThatThrownBy(() -> new RenyiFilter(noExPost))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expost");
    }
  }

  @Test
  void approximateFilterAddsDeltasAndConvertsRdpRequests() {
    ApproxDpFilter filter = new ApproxDpFilter(new InMemoryBudgetStore(new ApproxDp(5, 1e-5)));
    filter.answer("a", new ExPostDp<Double>(o -> o, 1, 4e-6), () -> 0.5);
    filter.answer("b", new ExPostRdp<Double>(11, o -> o, 1), 4e-6, () -> 0.5);
    ApproxDp left = (ApproxDp) filter.remaining();
    assertThat(left.delta()).isCloseTo(2e-6, within(1e-12));
    assertThat(left.epsilon()).isCloseTo(5 - 1 - Math.log(1 / 4e-6) / 10, within(1e-9));
    assertThatThrownBy(() -> filter.answer("c", new ExPostDp<Double>(o -> o, 0.1, 3e-6), () -> 0.0))
        .isInstanceOf(BudgetExceededException.class);
  }

  @Test
  void filtersRefuseStoresOfAnotherKind() {
    assertThatThrownBy(() -> new PureDpFilter(new InMemoryBudgetStore(new ApproxDp(1, 1e-6))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("store budget must be PureDp");
    assertThatThrownBy(() -> new RenyiFilter(new InMemoryBudgetStore(new PureDp(1))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentRequestsNeverOverspend() throws Exception {
    InMemoryBudgetStore store = new InMemoryBudgetStore(new PureDp(10));
    PureDpFilter filter = new PureDpFilter(store);
    AtomicInteger admitted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      pool.submit(() -> {
        for (int n = 0; n < 200; n++) {
          try {
            filter.answer("q", selfReporting(0.3), () -> {
              Thread.yield();
              return 0.1;
            });
            admitted.incrementAndGet();
          } catch (BudgetExceededException e) {
            // refused: fine
          }
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    assertThat(eps(store.spent())).isLessThanOrEqualTo(10);
    assertThat(store.entries()).hasSize(admitted.get());
    // each admission needs 0.3 headroom and costs 0.1: at least 97 admissions fit
    assertThat(admitted.get()).isBetween(97, 100);
  }

  @Test
  void theSqliteLedgerPlugsIntoTheFilter(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ledger.db");
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(file, new PureDp(1))) {
      PureDpFilter filter = new PureDpFilter(ledger);
      filter.answer("tune", selfReporting(0.6), () -> 0.25);
      assertThat(filter.remainingEpsilon()).isCloseTo(0.75, within(1e-12));
    }
    assertThat(Files.exists(file)).isTrue();
    try (SqliteLedger reopened = SqliteLedger.open(file)) {
      assertThat(reopened.entries()).extracting(LedgerEntry::label).containsExactly("tune");
      assertThat(eps(reopened.entries().get(0).charged())).isEqualTo(0.25);
    }
  }
}
