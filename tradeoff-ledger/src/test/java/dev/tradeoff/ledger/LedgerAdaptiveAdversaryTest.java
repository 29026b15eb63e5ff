package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated adaptive analyst: each next request (its kind and its privacy parameters) is chosen
 * from the earlier outputs and from what the ledger says remains, aiming at the edge of every
 * filter. Over many seeded runs, no filter ever ends past its budget, checked independently of
 * the ledger's own arithmetic.
 */
class LedgerAdaptiveAdversaryTest {

  private static final ApproxDp BUDGET = new ApproxDp(2, 1e-5);
  private static final String[] POLICIES = {"gdp", "rdp", "basic", "gdp:0.4,rdp:0.4,basic:0.2",
    "advanced", "rdp:0.5,advanced:0.3,basic:0.2"};

  @TempDir Path dir;

  @Test
  void noSeededAdaptiveAdversaryPushesAnyFilterPastItsBudget() {
    for (int seed = 0; seed < 18; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      String policyText = POLICIES[seed % POLICIES.length];
      LedgerPolicy policy = LedgerPolicy.parse(policyText, null, 1e-7);
      try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("a" + seed + ".db"), BUDGET,
          policy)) {
        double output = random.nextGaussian();
        for (int step = 0; step < 40; step++) {
          Charge request = choose(ledger, policy, output, random);
          try {
            ledger.charge("step " + step, request);
            // the release's output, which the next choice depends on
            output = output * 0.5 + random.nextGaussian();
          } catch (BudgetExceededException | IllegalArgumentException refused) {
            output = -Math.abs(output) - 0.1;
          }
        }
        check(ledger.history(), policy, seed);
      }
    }
  }

  private static Charge choose(SqliteLedger ledger, LedgerPolicy policy, double output,
      SplittableRandom random) {
    @SuppressWarnings("unchecked")
    Map<String, Object> left = ledger.remainingByFilter();
    double push = 0.5 + random.nextDouble() * (output > 0 ? 1.2 : 0.8);
    if (policy.has(FilterKind.GDP) && (output > 0 || !policy.has(FilterKind.RDP))) {
      @SuppressWarnings("unchecked")
      double mu = (double) ((Map<String, Object>) left.get("gdp")).get("muRemaining");
      double target = Math.max(1e-3, mu * push);
      return new Charge(new GaussianEvent(1 / target), new ApproxDp(1, 1e-7));
    }
    if (policy.has(FilterKind.RDP) && output > -1) {
      int steps = 1 + (int) (random.nextDouble() * 400 * push);
      return Charge.of(new SelfComposedEvent(
          new PoissonSampledEvent(0.02, new GaussianEvent(1.0)), steps), 1e-7);
    }
    if (policy.has(FilterKind.RDP)) {
      return Charge.of(new LaplaceEvent(1 / (0.3 * push)), 1e-7);
    }
    if (policy.has(FilterKind.ADVANCED) && (output > 0 || !policy.has(FilterKind.BASIC))) {
      @SuppressWarnings("unchecked")
      Map<String, Object> a = (Map<String, Object>) left.get("advanced");
      double squares = (double) a.get("sumOfSquaresRemaining");
      double delta = (double) a.get("deltaRemaining");
      return Charge.opaque(new ApproxDp(Math.max(1e-3, Math.sqrt(squares) * push * 0.3),
          Math.min(1e-6, delta * push * 0.3)));
    }
    ApproxDp basic = (ApproxDp) ledger.remaining();
    return Charge.opaque(new ApproxDp(Math.max(1e-3, basic.epsilon() * push),
        Math.min(1e-6, basic.delta() * push)));
  }

  private static void check(List<SqliteLedger.LedgerRecord> history, LedgerPolicy policy,
      int seed) {
    Map<FilterKind, BigDecimal> shares = policy.shares();
    double muSq = 0;
    double eps = 0;
    double del = 0;
    double[] orders = policy.orders();
    double[] rdp = new double[orders.length];
    List<ApproxDp> advanced = new java.util.ArrayList<>();
    for (SqliteLedger.LedgerRecord r : history) {
      EntryDescription d = r.description();
      switch (d.filter()) {
        case GDP -> muSq += d.gdpMu() * d.gdpMu();
        case RDP -> {
          for (int i = 0; i < orders.length; i++) {
            rdp[i] += d.rdp().epsilonAt(orders[i]);
          }
        }
        case BASIC -> {
          eps += d.approxDp().epsilon();
          del += d.approxDp().delta();
        }
        case ADVANCED -> advanced.add(d.approxDp());
        case EXPOST -> throw new AssertionError("no ex-post requests in this test");
      }
    }
    if (shares.containsKey(FilterKind.ADVANCED)) {
      double s = shares.get(FilterKind.ADVANCED).doubleValue();
      ApproxDp share = new ApproxDp(s * BUDGET.epsilon() * (1 + 1e-9), s * BUDGET.delta());
      assertThat(LedgerAdvancedFilterTest.condition(advanced, share))
          .as("seed %d advanced: the filter's condition holds for everything admitted", seed)
          .isTrue();
    }
    if (shares.containsKey(FilterKind.GDP)) {
      double s = shares.get(FilterKind.GDP).doubleValue();
      double mu = LedgerFiltersTest.gdpMu(s * BUDGET.epsilon(), s * BUDGET.delta());
      assertThat(muSq).as("seed %d GDP", seed).isLessThanOrEqualTo(mu * mu * (1 + 1e-9));
    }
    if (shares.containsKey(FilterKind.BASIC)) {
      double s = shares.get(FilterKind.BASIC).doubleValue();
      assertThat(eps).as("seed %d basic eps", seed).isLessThanOrEqualTo(s * BUDGET.epsilon() * (1 + 1e-12));
      assertThat(del).as("seed %d basic delta", seed).isLessThanOrEqualTo(s * BUDGET.delta() * (1 + 1e-12));
    }
    if (shares.containsKey(FilterKind.RDP)) {
      double s = shares.get(FilterKind.RDP).doubleValue();
      boolean someOrder = false;
      for (int i = 0; i < orders.length; i++) {
        someOrder |= rdp[i] <= LedgerFiltersTest.rdpLimit(orders[i], s * BUDGET.epsilon(),
            s * BUDGET.delta() / orders.length) * (1 + 1e-9);
      }
      assertThat(someOrder).as("seed %d RDP: some order within B(alpha)", seed).isTrue();
    }
    assertThat(history).as("seed %d made some charges", seed).isNotEmpty();
  }
}
