package dev.tradeoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.expost.PureDpCandidate;
import dev.tradeoff.selection.expost.RandomDroppingTuner;
import dev.tradeoff.selection.expost.RdpCandidate;
import dev.tradeoff.selection.expost.RenyiRandomDroppingTuner;
import dev.tradeoff.selection.expost.TuningOutcome;
import dev.tradeoff.selection.expost.TuningRun;
import dev.tradeoff.selection.filter.PureDpFilter;
import dev.tradeoff.selection.filter.RenyiFilter;
import java.io.PrintWriter;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff tune --plan plan.json [--ledger FILE] [--budget EPS] [--seed S] [--json]}: runs
 * [ExPost25, Algorithm 3] (random dropping) over the plan's shell-command candidates ({@link
 * TunePlan}), with Geom_{e^{−ε′}} dropping and the ex-post pure-DP guarantee of Theorem 11 (2ε_i +
 * ε′ for the chosen candidate, 0 for none), or, when the plan gives {@code alpha}, Exp_{ε′}
 * dropping and the ex-post RDP guarantee of Theorem 13. With {@code --ledger}, the run goes through
 * the privacy filter (Algorithm 4 / its pure-DP counterpart) on that ledger: admitted only if the
 * worst case fits, charged the realised ε̃, durably, before anything is printed. A new ledger is
 * created with budget {@code --budget} (pure ε, or RDP ε at {@code alpha}); with {@code --budget}
 * alone the worst case is checked against it in memory. An existing (ε, δ) ledger whose policy has
 * an ex-post share ({@code tradeoff ledger create --filters rdp:0.6,expost@8:0.2,basic:0.2})
 * admits the run by its ex-post RDP filter at that order (Algorithm 4, Theorem 16; an ex-post
 * pure-DP guarantee enters by Lemma 7), and the entry records the worst case and the realised ε̃.
 * A failing candidate (crash, timeout,
 * garbage, negative or NaN ε) aborts the run with one line on stderr and status 2, the ledger
 * unchanged; a refused request prints one line and exits with status 3. {@code --seed} makes the
 * run reproducible and not private: every output says so, and it is refused with {@code --ledger}
 * (a seeded run is never charged as if it were private).
 */
@Command(
    name = "tune",
    mixinStandardHelpOptions = true,
    description = "Private hyperparameter tuning with ex-post guarantees (Algorithm 3).",
    subcommands = {TuneInvocationsCommand.class})
public final class TuneCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--plan", description = "plan JSON (candidates, epsilonPrime, optional alpha)")
  Path plan;

  @Option(names = "--ledger", converter = LedgerLocation.Converter.class,
      description = "privacy-budget ledger to charge: an SQLite file or"
          + " postgresql://HOST[:PORT]/DB (credentials from PGUSER/PGPASSWORD or ~/.pgpass)")
  LedgerLocation ledger;

  @Option(names = "--dataset", description = "the dataset whose budget a PostgreSQL ledger"
      + " charges (default " + LedgerLocation.DEFAULT_DATASET + ")")
  String dataset;

  @Option(names = "--budget", description = "total budget (for a new ledger, or checked in memory)")
  Double budget;

  @Option(names = "--seed", description = "seed the dropping randomness (default: SecureRandom)")
  Long seed;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (plan == null) {
      throw new IllegalArgumentException("--plan is required (or use: tune invocations)");
    }
    if (budget != null) {
      Inputs.range("--budget", budget, Inputs.MIN_EPSILON, 10_000, "a total epsilon budget");
    }
    TunePlan p = TunePlan.read(plan);
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    Result result;
    PrivacyGuarantee remaining;
    try (BudgetStore store = store(p)) {
      // a refusal (BudgetExceededException) exits with TradeoffCommand.BUDGET_EXCEEDED
      result = p.alpha().isPresent() ? renyi(p, store, random) : pure(p, store, random);
      remaining = store == null ? null
          : store instanceof PrivacyLedger l && l.policy().isPresent() ? l.exPostRemaining()
          : store.remaining();
    }
    print(p, result, remaining);
    return 0;
  }

  /** What one tuning run released and spent. */
  private record Result(TuningRun<JsonNode> run, String guaranteeKind, double epsilon, double exAnte) {}

  private BudgetStore store(TunePlan p) {
    PrivacyGuarantee fresh =
        budget == null ? null : p.alpha().<PrivacyGuarantee>map(a -> RenyiDp.ofOrder(a, budget)).orElse(new PureDp(budget));
    if (ledger != null) {
      if (seed != null) {
        throw new IllegalArgumentException("--seed makes the run reproducible and NOT private, so"
            + " it is never charged to a privacy ledger: drop --seed (or --ledger)");
      }
      ledger.toWrite("--ledger");
      if (fresh != null) {
        // create-or-open in one write transaction: concurrent first runs all succeed
        return ledger.openOrCreate(dataset, fresh);
      }
      if (!ledger.exists(dataset)) {
        throw new IllegalArgumentException("--budget is required to create the new ledger " + ledger);
      }
      return ledger.open(dataset);
    }
    return fresh == null ? null : new InMemoryBudgetStore(fresh);
  }

  private Result pure(TunePlan p, BudgetStore store, RandomGenerator random) {
    List<PureDpCandidate<JsonNode>> cs = new ArrayList<>();
    for (TunePlan.Entry e : p.candidates()) {
      cs.add(new PureDpCandidate<>(new ShellCandidate(e, p.timeoutSeconds(), null), e.epsilon().orElseThrow()));
    }
    RandomDroppingTuner<JsonNode> tuner = RandomDroppingTuner.of(cs, p.epsilonPrime());
    var guarantee = tuner.guarantee();
    TuningRun<JsonNode> run;
    if (store == null) {
      run = tuner.run(random);
    } else if (store.kind() == GuaranteeKind.APPROX_DP) {
      // an (epsilon, delta) ledger admits ex-post requests by its ex-post RDP filter (Algorithm 4);
      // ex-post pure DP enters it by Lemma 7 (epsilon~-DP is ex-post (alpha, epsilon~)-RDP)
      run = new RenyiFilter(store).answer(label(), guarantee, () -> tuner.run(random),
          TuningRun::outcome);
    } else {
      run = new PureDpFilter(store).answer(label(), guarantee, () -> tuner.run(random),
          TuningRun::outcome);
    }
    return new Result(run, "ex-post pure DP (Theorem 11)", guarantee.epsilonOf(run.outcome()),
        guarantee.exAnteEpsilon());
  }

  private Result renyi(TunePlan p, BudgetStore store, RandomGenerator random) {
    double alpha = p.alpha().orElseThrow();
    List<RdpCandidate<JsonNode>> cs = new ArrayList<>();
    for (TunePlan.Entry e : p.candidates()) {
      RenyiDp declared = e.rdp().orElseGet(() -> RenyiDp.ofOrder(alpha, e.epsilon().orElseThrow()));
      cs.add(new RdpCandidate<>(new ShellCandidate(e, p.timeoutSeconds(), alpha), declared));
    }
    RenyiRandomDroppingTuner<JsonNode> tuner = RenyiRandomDroppingTuner.of(cs, p.epsilonPrime(), alpha);
    var guarantee = tuner.guarantee();
    TuningRun<JsonNode> run =
        store == null
            ? tuner.run(random)
            : new RenyiFilter(store).answer(label(), guarantee, () -> tuner.run(random), TuningRun::outcome);
    return new Result(run, "ex-post RDP at alpha " + alpha + " (Theorem 13)",
        guarantee.epsilonOf(run.outcome()), guarantee.exAnteEpsilon());
  }

  private String randomness() {
    return seed == null ? "secure" : "seeded(" + seed + "): reproducible, NOT private";
  }

  private String label() {
    return "tune " + plan.getFileName();
  }

  private void print(TunePlan p, Result r, PrivacyGuarantee remaining) throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Map<String, Object> doc = new LinkedHashMap<>();
    if (r.run.outcome() instanceof TuningOutcome.Selected<JsonNode> s) {
      Map<String, Object> chosen = new LinkedHashMap<>();
      chosen.put("index", s.index());
      chosen.put("name", p.candidates().get(s.index()).name());
      chosen.put("command", p.candidates().get(s.index()).command());
      chosen.put("score", s.result().score());
      chosen.put("report", s.result().output());
      doc.put("chosen", chosen);
    } else {
      doc.put("chosen", null);
    }
    doc.put("runs", r.run.runs());
    doc.put("candidates", p.candidates().size());
    doc.put("epsilonPrime", p.epsilonPrime());
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("kind", r.guaranteeKind);
    p.alpha().ifPresent(a -> g.put("alpha", a));
    g.put("epsilon", r.epsilon);
    g.put("exAnteEpsilon", r.exAnte);
    g.put("private", seed == null);
    doc.put("guarantee", g);
    doc.put("seeded", seed != null);
    doc.put("randomness", randomness());
    if (remaining != null) {
      doc.put("remaining", LedgerCommand.amounts(remaining));
    }
    if (ledger != null) {
      doc.put("ledger", ledger.toString());
    }
    if (json) {
      out.println(Json.write(doc));
    } else {
      Object chosen = doc.get("chosen");
      out.printf("chosen       %s%n",
          chosen == null ? "none (every candidate was dropped)" : ((Map<?, ?>) chosen).get("name")
              + " (score " + Numbers.nearest(((Number) ((Map<?, ?>) chosen).get("score")).doubleValue()) + ")");
      out.printf("runs         %d of %d candidates%n", r.run.runs(), p.candidates().size());
      out.printf("guarantee    epsilon %s, %s%s%n", Numbers.up(r.epsilon), r.guaranteeKind,
          seed == null ? "" : " (NOT private: the run was seeded)");
      out.printf("worst case   epsilon %s%n", Numbers.up(r.exAnte));
      out.printf("randomness   %s%n", randomness());
      if (remaining != null) {
        out.printf("remaining    %s%n", LedgerCommand.text(remaining, RoundingMode.DOWN));
      }
    }
    out.flush();
  }
}
