package dev.tradeoff.selection.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.ExPostRdp;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Algorithm 4 and its pure / approximate counterparts. */
class PrivacyFilterTest {

  /** An ex-post mechanism whose output is its own ε̃ (outputs in [0, sup]). */
  private static ExPostDp<Double> selfReporting(double sup) {
    return ExPostDp.pure(o -> o, sup);
  }

  @Test
  void pureFilterAdmitsOnTheWorstCaseButChargesTheRealisedEpsilon() {
    PureDpFilter filter = new PureDpFilter(new PureDp(1.0), new InMemoryBudgetStore());
    assertThat(filter.answer("a", selfReporting(0.8), () -> 0.1)).isEqualTo(0.1);
    assertThat(filter.remaining().epsilon()).isCloseTo(0.9, within(1e-12));
    filter.answer("b", selfReporting(0.85), () -> 0.2);
    assertThat(filter.remaining().epsilon()).isCloseTo(0.7, within(1e-12));
    AtomicInteger ran = new AtomicInteger();
    assertThatThrownBy(() -> filter.answer("c", selfReporting(0.75), () -> (double) ran.incrementAndGet()))
        .isInstanceOfSatisfying(
            BudgetExceededException.class,
            e -> {
              assertThat(e.requested().epsilon()).isEqualTo(0.75);
              assertThat(e.remaining().epsilon()).isCloseTo(0.7, within(1e-12));
              assertThat(e).hasMessageContaining("requested up to epsilon=0.75");
            });
    assertThat(ran).hasValue(0);
    assertThat(filter.remaining().epsilon()).isCloseTo(0.7, within(1e-12));
  }

  @Test
  void aCrashingMechanismChargesNothingAndAnInvalidEpsilonChargesTheWorstCase() {
    InMemoryBudgetStore store = new InMemoryBudgetStore();
    PureDpFilter filter = new PureDpFilter(new PureDp(1.0), store);
    assertThatThrownBy(() -> filter.answer("crash", selfReporting(0.5), () -> {
      throw new IllegalStateException("boom");
    })).hasMessage("boom");
    assertThat(store.spent()).isEqualTo(Charge.ZERO);
    assertThatThrownBy(() -> filter.answer("lies", selfReporting(0.5), () -> 0.9))
        .isInstanceOf(IllegalStateException.class);
    assertThat(store.spent().epsilon()).isEqualTo(0.5);
    assertThat(store.entries()).extracting(InMemoryBudgetStore.Entry::description).containsExactly("lies");
  }

  @Test
  void renyiFilterKeepsTheOrderAndTakesPureRequestsThroughLemma7() {
    RenyiFilter filter = new RenyiFilter(4, 2.0, new InMemoryBudgetStore());
    ExPostRdp<Double> rdp = new ExPostRdp<>(4, o -> o, 1.5);
    filter.answer("rdp", rdp, () -> 0.5);
    filter.answer("pure", selfReporting(1.5), () -> 1.0);
    assertThat(filter.remaining().epsilon()).isCloseTo(0.5, within(1e-12));
    assertThatThrownBy(() -> filter.answer("wrong order", new ExPostRdp<Double>(2, o -> o, 0.1), () -> 0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must equal the filter order 4.0");
    assertThat(filter.guarantee(1e-6).epsilon())
        .isGreaterThanOrEqualTo(2 + Math.log(1e6) / 3)
        .isCloseTo(2 + Math.log(1e6) / 3, within(1e-12));
    assertThat(filter.guarantee().epsilonAt(4)).isEqualTo(2.0);
  }

  @Test
  void approximateFilterAddsDeltasAndConvertsRdpRequests() {
    ApproxDpFilter filter = new ApproxDpFilter(new ApproxDp(5, 1e-5), new InMemoryBudgetStore());
    filter.answer("a", new ExPostDp<Double>(o -> o, 1, 4e-6), () -> 0.5);
    filter.answer("b", new ExPostRdp<Double>(11, o -> o, 1), 4e-6, () -> 0.5);
    Charge left = filter.remaining();
    assertThat(left.delta()).isCloseTo(2e-6, within(1e-12));
    assertThat(left.epsilon()).isCloseTo(5 - 1 - Math.log(1 / 4e-6) / 10, within(1e-9));
    assertThatThrownBy(() -> filter.answer("c", new ExPostDp<Double>(o -> o, 0.1, 3e-6), () -> 0.0))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("delta=3.0E-6");
  }

  @Test
  void concurrentRequestsNeverOverspend() throws Exception {
    InMemoryBudgetStore store = new InMemoryBudgetStore();
    PureDpFilter filter = new PureDpFilter(new PureDp(10), store);
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
    assertThat(store.spent().epsilon()).isLessThanOrEqualTo(10);
    assertThat(store.entries()).hasSize(admitted.get());
    // each admission needs 0.3 headroom and costs 0.1: at least 97 admissions fit
    assertThat(admitted.get()).isBetween(97, 100);
  }
}
