package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.nio.file.Path;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays the same sequence of releases through every filter and checks the admitted counts
 * against an independent closed-form computation (GDP by Dong–Roth–Su's δ(ε) with Commons
 * Statistics' normal CDF; RDP sums against B(α) from the closed form of the improved conversion).
 */
class LedgerFiltersTest {

  private static final ApproxDp BUDGET = new ApproxDp(8, 1e-5);
  private static final NormalDistribution N = NormalDistribution.of(0, 1);

  @TempDir Path dir;

  /** δ(ε) of μ-GDP (Dong, Roth and Su 2022, Corollary 2.13), independently of the library. */
  static double gdpDelta(double mu, double epsilon) {
    return N.cumulativeProbability(-epsilon / mu + mu / 2)
        - Math.exp(epsilon) * N.cumulativeProbability(-epsilon / mu - mu / 2);
  }

  /** The largest μ with δ_μ(ε) ≤ δ, by plain bisection. */
  static double gdpMu(double epsilon, double delta) {
    double lo = 0;
    double hi = 10;
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (gdpDelta(mid, epsilon) <= delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** B(α) from the closed form of the improved RDP conversion at δ' (CKS 2020, Prop. 12). */
  static double rdpLimit(double alpha, double epsilon, double deltaShare) {
    return Math.max(0, epsilon + (Math.log(deltaShare) - alpha * Math.log(1 - 1 / alpha)
        + Math.log(alpha - 1)) / (alpha - 1));
  }

  /** How many k-fold repeats of a curve fit at the best order of the default grid. */
  static int rdpCount(RenyiDp curve, ApproxDp budget) {
    double[] orders = LedgerPolicy.only(FilterKind.RDP, budget).orders();
    int best = 0;
    for (double a : orders) {
      double b = rdpLimit(a, budget.epsilon(), budget.delta() / orders.length);
      best = Math.max(best, (int) Math.floor(b / curve.epsilonAt(a) * (1 - 1e-12)));
    }
    return best;
  }

  private int admitted(String name, FilterKind filter, Charge each) {
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve(name + ".db"), BUDGET,
        LedgerPolicy.only(filter, BUDGET))) {
      int n = 0;
      while (n < 10_000) {
        try {
          ledger.charge("release " + n, each);
        } catch (BudgetExceededException e) {
          break;
        }
        n++;
      }
      assertThat(ledger.fits(each, 1)).isZero();
      return n;
    }
  }

  @Test
  void gaussianReleasesOfOneAndOneInTenMillionFitSixtyTimesUnderGdpAndEightUnderBasic() {
    double mu1 = gdpMu(1, 1e-7);
    double muBudget = gdpMu(8, 1e-5);
    assertThat(mu1).isCloseTo(0.2137, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(muBudget).isCloseTo(1.6660, org.assertj.core.data.Offset.offset(1e-4));
    int closedForm = (int) Math.floor(muBudget * muBudget / (mu1 * mu1));
    assertThat(closedForm).isEqualTo(60);

    double sigma = 1 / mu1;
    Charge release = new Charge(new GaussianEvent(sigma), new ApproxDp(1, 1e-7));
    int gdp = admitted("gdp", FilterKind.GDP, release);
    int rdp = admitted("rdp", FilterKind.RDP, release);
    int basic = admitted("basic", FilterKind.BASIC, release);
    int expectedRdp = rdpCount(RenyiDp.ofCurve(RenyiDp.defaultOrders(),
        a -> a / (2 * sigma * sigma)), BUDGET);
    // The non-adaptive optimum for the same sequence (PLD; exact for Gaussians = GDP).
    int pld = largest(k -> new PldAccountant().account(new SelfComposedEvent(
        new GaussianEvent(sigma), k), Neighbouring.ADD_OR_REMOVE_ONE).epsilon(1e-5) <= 8, 200);
    System.out.printf("Gaussian (1, 1e-7) under (8, 1e-5): GDP %d, RDP %d (closed form %d),"
        + " basic %d, PLD optimum (non-adaptive) %d%n", gdp, rdp, expectedRdp, basic, pld);
    assertThat(gdp).isEqualTo(60);
    assertThat(basic).isEqualTo(8);
    assertThat(rdp).isEqualTo(expectedRdp);
    assertThat(pld).isGreaterThanOrEqualTo(gdp);
  }

  @Test
  void dpSgdRunsAreAdmittedByTheRdpFilterFarMoreOftenThanByBasicComposition() {
    DpEvent run = new SelfComposedEvent(
        new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 1000);
    Charge charge = Charge.of(run, 1e-7);
    int rdp = admitted("sgd-rdp", FilterKind.RDP, charge);
    int basic = admitted("sgd-basic", FilterKind.BASIC, charge);
    RenyiDp curve = new RdpAccountant(LedgerPolicy.only(FilterKind.RDP, BUDGET).orders())
        .rdp(run, Neighbouring.ADD_OR_REMOVE_ONE);
    int expectedRdp = rdpCount(curve, BUDGET);
    int expectedBasic = (int) Math.min(Math.floor(8 / charge.approxDp().epsilon()), 100);
    int pld = largest(k -> new PldAccountant().account(new SelfComposedEvent(
        new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 1000 * k),
        Neighbouring.ADD_OR_REMOVE_ONE).epsilon(1e-5) <= 8, 400);
    System.out.printf("DP-SGD runs (sigma 1.1, q 0.01, 1000 steps; each (%.4f, 1e-7)) under"
        + " (8, 1e-5): RDP %d (closed form %d), basic %d (closed form %d), PLD optimum"
        + " (non-adaptive) %d%n", charge.approxDp().epsilon(), rdp, expectedRdp, basic,
        expectedBasic, pld);
    assertThat(rdp).isEqualTo(expectedRdp);
    assertThat(basic).isEqualTo(expectedBasic);
    assertThat(rdp).isGreaterThan(basic);
    assertThat(pld).isGreaterThanOrEqualTo(rdp);
  }

  @Test
  void aGdpOnlyLedgerRefusesWhatItCannotAdmitByGdp() {
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("g.db"), BUDGET,
        LedgerPolicy.only(FilterKind.GDP, BUDGET))) {
      assertThatThrownBy(() -> ledger.charge("opaque", new ApproxDp(0.5, 1e-7)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("basic or advanced share");
      assertThat(ledger.history()).isEmpty();
    }
  }

  @Test
  void aMixedLedgerRoutesEachChargeToItsFilterAndSplitsTheBudgetByShare() {
    LedgerPolicy policy = LedgerPolicy.parse("gdp:0.5,rdp:0.3,basic:0.2", null, 1e-7);
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("m.db"), BUDGET, policy)) {
      ledger.charge("gauss", new Charge(new GaussianEvent(5), new ApproxDp(1, 1e-7)));
      ledger.charge("sgd", Charge.of(new SelfComposedEvent(
          new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 100), 1e-7));
      ledger.charge("opaque", new ApproxDp(0.1, 1e-8));
      assertThat(ledger.history()).extracting(h -> h.description().filter())
          .containsExactly(FilterKind.GDP, FilterKind.RDP, FilterKind.BASIC);
      var remaining = ledger.remainingByFilter();
      assertThat(remaining).containsKeys("gdp", "rdp", "basic");
      // what the basic share (0.2 of the budget) has left after the opaque charge, rounded down
      ApproxDp left = (ApproxDp) ledger.remaining();
      assertThat(left.epsilon()).isBetween(1.5 - 1e-12, 1.5);
      assertThat(left.delta()).isBetween(1.99e-6 - 1e-18, 1.99e-6);
    }
  }

  @Test
  void reopeningKeepsThePolicyAndTheEventsRoundTrip() {
    Path file = dir.resolve("r.db");
    DpEvent run = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 10);
    try (SqliteLedger ledger = SqliteLedger.create(file, BUDGET,
        LedgerPolicy.parse("rdp:0.9,basic:0.1", null, 1e-7))) {
      ledger.charge("sgd", Charge.of(run, 1e-7), "tradeoff ledger charge ...");
    }
    try (SqliteLedger ledger = SqliteLedger.open(file)) {
      assertThat(ledger.policy().orElseThrow().text()).isEqualTo("rdp:0.9,basic:0.1");
      EntryDescription d = ledger.history().get(0).description();
      assertThat(d.event()).isEqualTo(run);
      assertThat(d.rdp()).isNotNull();
      assertThat(d.commandLine()).isEqualTo("tradeoff ledger charge ...");
      assertThat(ledger.verify().entries()).isEqualTo(1);
    }
  }

  @Test
  void fitsCountsMillionsOfGaussianReleasesExactlyByMuTimesTheRootOfTheCount() {
    double sigma = 1000;
    DpEvent one = new GaussianEvent(sigma);
    Charge charge = new Charge(one, new ApproxDp(0.01, 1e-7));
    double muBudget = gdpMu(8, 1e-5);
    long closedForm = (long) Math.floor(muBudget * muBudget * sigma * sigma);
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("many.db"), BUDGET,
        LedgerPolicy.only(FilterKind.GDP, BUDGET))) {
      int fit = ledger.fits(charge, Integer.MAX_VALUE);
      System.out.printf("Gaussian sigma 1000 under (8, 1e-5), GDP filter: %d fit (closed form"
          + " mu_budget^2 sigma^2 = %d)%n", fit, closedForm);
      // the library's mu (rounded up) and bisected budget mu agree with ours to ~1e-12
      assertThat((double) fit).isCloseTo(closedForm, org.assertj.core.data.Offset.offset(2.0));
      // and exactly fit releases are admitted as one entry, one more is not
      ledger.charge("fit", gdpCharge(new SelfComposedEvent(one, fit), fit / (sigma * sigma)));
      assertThat(ledger.fits(charge, Integer.MAX_VALUE)).isZero();
    }
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("over.db"), BUDGET,
        LedgerPolicy.only(FilterKind.GDP, BUDGET))) {
      int fit = ledger.fits(charge, Integer.MAX_VALUE);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> ledger.charge("over", gdpCharge(
          new SelfComposedEvent(one, fit + 1), (fit + 1) / (sigma * sigma))))
          .isInstanceOf(BudgetExceededException.class);
    }
  }

  /** A charge of a Gaussian composition with μ² = muSquared, its (ε, δ) from the GDP profile. */
  private static Charge gdpCharge(DpEvent event, double muSquared) {
    double mu = Math.sqrt(muSquared);
    double epsilon = dev.tradeoff.accounting.conversion.GaussianDpConversion.epsilon(mu, 1e-7);
    return new Charge(event, new ApproxDp(Math.nextUp(epsilon), 1e-7));
  }

  @Test
  void fitsCountsDpSgdStepsByScalingTheCurve() {
    DpEvent step = new PoissonSampledEvent(0.01, new GaussianEvent(1.1));
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("steps.db"), BUDGET,
        LedgerPolicy.only(FilterKind.RDP, BUDGET))) {
      int fit = ledger.fits(Charge.of(step, 1e-7), Integer.MAX_VALUE);
      RenyiDp curve = new RdpAccountant(LedgerPolicy.only(FilterKind.RDP, BUDGET).orders())
          .rdp(step, Neighbouring.ADD_OR_REMOVE_ONE);
      int expected = rdpCount(curve, BUDGET);
      System.out.printf("DP-SGD steps (sigma 1.1, q 0.01) under (8, 1e-5), RDP filter: %d fit"
          + " (closed form %d)%n", fit, expected);
      assertThat(fit).isBetween(expected - 1, expected + 1);
    }
  }

  interface IntTest {
    boolean ok(int k);
  }

  /** The largest k in [0, max] with ok(k), ok monotone decreasing. */
  static int largest(IntTest ok, int max) {
    int lo = 0;
    int hi = max;
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (ok.ok(mid)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }
}
