package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ex-post RDP filter of an (ε, δ) ledger ([ExPost25] = Ghazi et al. 2025, Algorithm 4 and
 * Theorem 16): request i is admitted iff Σ_{j&lt;i} ε̃_j(o_j) + sup ε̃_i ≤ B at the filter's fixed
 * order, and is charged its realised ε̃_i(o_i). The expected admissions are replayed here with plain
 * double arithmetic against B from the closed form of the improved conversion (Canonne, Kamath and
 * Steinke 2020, Proposition 12), independently of {@link Filters}.
 */
class LedgerExPostFilterTest {

  private static final ApproxDp BUDGET = new ApproxDp(8, 1e-5);
  private static final double ALPHA = 8;

  @TempDir Path dir;

  private SqliteLedger ledger(String name, String policy) {
    return SqliteLedger.create(dir.resolve(name + ".db"), BUDGET,
        LedgerPolicy.parse(policy, null, 1e-7));
  }

  /** A tuning-like release: worst case 1.0 at α = 8; realised ε̃ 0.25 (nothing chosen) or in [0.25, 1]. */
  private static double realised(SplittableRandom random) {
    return random.nextBoolean() ? 0.25 : 0.25 + 0.75 * random.nextDouble();
  }

  @Test
  void exPostReleasesAreChargedTheirRealisedEpsilonAndAdmittedWhileTheWorstCaseFits() {
    double sup = 1.0;
    double b = LedgerFiltersTest.rdpLimit(ALPHA, 8, 1e-5);
    // independent replay of Algorithm 4's admission rule on the same realised sequence
    SplittableRandom replay = new SplittableRandom(21);
    double spent = 0;
    int expected = 0;
    while (spent + sup <= b * (1 - 1e-12)) {
      spent += realised(replay);
      expected++;
    }
    int admitted;
    SplittableRandom random = new SplittableRandom(21);
    try (SqliteLedger ledger = ledger("x", "expost@8")) {
      assertThat(ledger.exPostOrder()).hasValue(ALPHA);
      admitted = 0;
      while (true) {
        Reservation r;
        try {
          r = ledger.reserve("tune " + admitted, RenyiDp.ofOrder(ALPHA, sup));
        } catch (BudgetExceededException e) {
          break;
        }
        ledger.commit(r, RenyiDp.ofOrder(ALPHA, realised(random)));
        admitted++;
      }
      assertThat(ledger.verify().entries()).isEqualTo(admitted);
      EntryDescription d = ledger.history().get(0).description();
      assertThat(d.filter()).isEqualTo(FilterKind.EXPOST);
      assertThat(d.rdp()).isEqualTo(RenyiDp.ofOrder(ALPHA, sup));
      // its (ε, δ) is the worst case's improved conversion at the policy's event δ
      assertThat(d.approxDp().epsilon())
          .isGreaterThanOrEqualTo(RdpConversion.improvedEpsilon(ALPHA, sup, 1e-7));
      assertThat(ledger.exPostRemaining().epsilon(0)).isLessThan(sup);
    }
    // the same releases charged ex ante (their worst case at α, Theorem 16 with constant ε̃)
    int exAnte = (int) Math.floor(b / sup * (1 - 1e-12));
    // ... and by basic composition of their ex-ante (ε, δ) at δ = 1e-7
    int basic = (int) Math.floor(8 / RdpConversion.improvedEpsilon(ALPHA, sup, 1e-7));
    System.out.printf("ex-post workload (worst case 1.0 at alpha 8, realised 0.25..1.0) under"
        + " (8, 1e-5): ex-post filter %d (replay %d), charged at the worst case %d, basic %d%n",
        admitted, expected, exAnte, basic);
    assertThat(admitted).isEqualTo(expected);
    assertThat(admitted).isGreaterThan(exAnte);
    assertThat(exAnte).isGreaterThan(basic);
  }

  @Test
  void theBoundIsTheOrderOfTheImprovedConversionOfTheShare() {
    try (SqliteLedger ledger = ledger("b", "rdp:0.6,expost@8:0.2,basic:0.2")) {
      double b = LedgerFiltersTest.rdpLimit(ALPHA, 8 * 0.2, 1e-5 * 0.2);
      double actual = ledger.exPostRemaining().epsilon(0);
      assertThat(actual).isLessThanOrEqualTo(b).isGreaterThan(b * (1 - 1e-9));
      // and converting the bound back gives at most the share's δ
      assertThat(RdpConversion.improvedDelta(ALPHA, actual, 8 * 0.2))
          .isLessThanOrEqualTo(1e-5 * 0.2);
      assertThat(ledger.policy().orElseThrow().text()).isEqualTo("rdp:0.6,basic:0.2,expost@8.0:0.2");
    }
  }

  @Test
  void anOpenReservationCountsAtItsWorstCaseAndACancelledOneNotAtAll() {
    try (SqliteLedger ledger = ledger("o", "expost@8")) {
      double b = ledger.exPostRemaining().epsilon(0);
      Reservation open = ledger.reserve("crashed run", RenyiDp.ofOrder(ALPHA, b / 2));
      assertThat(ledger.exPostRemaining().epsilon(0)).isLessThanOrEqualTo(b - b / 2);
      assertThatThrownBy(() -> ledger.reserve("too much", RenyiDp.ofOrder(ALPHA, b * 0.6)))
          .isInstanceOf(BudgetExceededException.class);
      ledger.cancel(open);
      assertThat(ledger.exPostRemaining().epsilon(0)).isEqualTo(b);
      Reservation r = ledger.reserve("run", RenyiDp.ofOrder(ALPHA, b * 0.6));
      LedgerEntry e = ledger.commit(r, RenyiDp.ofOrder(ALPHA, 0.1));
      assertThat(e.status()).isEqualTo(EntryStatus.COMMITTED);
      assertThat(ledger.entries()).extracting(LedgerEntry::charged)
          .containsExactly(RenyiDp.ofOrder(ALPHA, 0.1));
      assertThat(new BigDecimal(ledger.exPostRemaining().epsilon(0)))
          .isLessThanOrEqualTo(new BigDecimal(b).subtract(new BigDecimal(0.1)));
    }
  }

  @Test
  void requestsAtAnotherOrderOrAboveTheirWorstCaseAreRefusedAndNothingChanges() {
    try (SqliteLedger ledger = ledger("r", "expost@8:0.5,basic:0.5")) {
      assertThatThrownBy(() -> ledger.reserve("t", RenyiDp.ofOrder(4, 0.5)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("order 8.0");
      Reservation r = ledger.reserve("t", RenyiDp.ofOrder(ALPHA, 0.5));
      assertThatThrownBy(() -> ledger.commit(r, RenyiDp.ofOrder(ALPHA, 0.6)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
      assertThatThrownBy(() -> ledger.commit(r, new ApproxDp(0.1, 0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("order 8.0");
      assertThat(ledger.entries()).extracting(LedgerEntry::status)
          .containsExactly(EntryStatus.RESERVED);
      // an opaque charge still goes to basic, not to the ex-post filter
      ledger.charge("opaque", Charge.opaque(new ApproxDp(0.5, 1e-8)));
      assertThat(ledger.history().get(1).description().filter()).isEqualTo(FilterKind.BASIC);
    }
    try (SqliteLedger plain = ledger("p", "rdp:0.8,basic:0.2")) {
      assertThat(plain.exPostOrder()).isEmpty();
      assertThatThrownBy(() -> plain.reserve("t", RenyiDp.ofOrder(ALPHA, 0.5)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no expost filter");
    }
  }

  @Test
  void anAdaptiveAnalystNeverPushesTheRealisedSumPastTheBound() {
    for (long seed = 0; seed < 40; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      try (SqliteLedger ledger = ledger("a" + seed, "expost@8")) {
        double b = ledger.exPostRemaining().epsilon(0);
        BigDecimal realisedSum = BigDecimal.ZERO;
        for (int i = 0; i < 30; i++) {
          // the analyst asks for about what it sees left, sometimes more
          double left = ledger.exPostRemaining().epsilon(0);
          double sup = Math.max(1e-3, left * (0.3 + random.nextDouble()));
          try {
            Reservation r = ledger.reserve("q" + i, RenyiDp.ofOrder(ALPHA, sup));
            double eps = random.nextDouble() < 0.3 ? sup : sup * random.nextDouble();
            ledger.commit(r, RenyiDp.ofOrder(ALPHA, eps));
            realisedSum = realisedSum.add(new BigDecimal(eps));
          } catch (BudgetExceededException e) {
            assertThat(new BigDecimal(sup).add(realisedSum)).isGreaterThan(new BigDecimal(b));
          }
          assertThat(realisedSum).isLessThanOrEqualTo(new BigDecimal(b));
        }
      }
    }
  }

  @Test
  void anOrderTooSmallForItsShareIsRefusedAtCreation() {
    // (1.6, 2e-6) at α = 4: the conversion alone costs (log(1/δ) + ...)/(α − 1) ≈ 3.6 > 1.6
    assertThatThrownBy(() -> ledger("small", "rdp:0.8,expost@4:0.2"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("larger order");
    assertThat(dir.resolve("small.db")).doesNotExist();
  }

  @Test
  void theExPostOrderIsPartOfThePolicyText() {
    assertThat(LedgerPolicy.parse("expost@8:0.3,basic:0.7", null, 1e-7).exPostOrder())
        .isEqualTo(8);
    assertThatThrownBy(() -> LedgerPolicy.parse("expost:0.3", null, 1e-7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expost@8:0.2");
    assertThatThrownBy(() -> LedgerPolicy.parse("rdp@8", null, 1e-7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only the expost");
    assertThatThrownBy(() -> LedgerPolicy.parse("expost@1", null, 1e-7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expost order");
  }
}
