package dev.tradeoff.cli.tune;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.LedgerAmounts;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.options.LedgerLocation;
import dev.tradeoff.cli.options.LedgerTarget;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.command.CommandTuning;
import dev.tradeoff.selection.command.TuningPlan;
import dev.tradeoff.selection.expost.TuningOutcome;
import java.io.PrintWriter;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff tune --plan plan.json [--ledger FILE] [--budget EPS] [--seed S] [--json]}: reads
 * the {@link TuningPlan}, opens the budget and prints what {@link CommandTuning} (the library's
 * [ExPost25, Algorithm 3] over shell-command candidates, Theorem 11 or 13) released. With {@code
 * --ledger}, the run goes through the privacy filter on that ledger: admitted only if the worst
 * case fits, charged the realised ε̃, durably, before anything is printed. A new ledger is
 * created with budget {@code --budget} (pure ε, or RDP ε at {@code alpha}); with {@code --budget}
 * alone the worst case is checked against it in memory. An existing (ε, δ) ledger whose policy has
 * an ex-post share ({@code tradeoff ledger create --filters rdp:0.6,expost@8:0.2,basic:0.2})
 * admits the run by its ex-post RDP filter at that order, and the entry records the worst case and
 * the realised ε̃. A failing candidate (crash, timeout, garbage, negative or NaN ε) aborts the run with one line on stderr and status 2, the ledger
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

  @Mixin LedgerTarget target;

  @Option(names = "--budget", converter = PrivacyParameters.TotalEpsilon.class,
      description = "total budget (for a new ledger, or checked in memory)")
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
    TuningPlan p = TuningPlan.read(plan);
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    CommandTuning.Result result;
    PrivacyGuarantee remaining;
    try (BudgetStore store = store(p)) {
      // a refusal (BudgetExceededException) exits with Failures.BUDGET_EXCEEDED
      result = store == null ? CommandTuning.run(p, random)
          : CommandTuning.run(p, store, label(), random);
      remaining = store == null ? null
          : store instanceof PrivacyLedger l && l.policy().isPresent() ? l.exPostRemaining()
          : store.remaining();
    }
    print(p, result, remaining);
    return 0;
  }

  private BudgetStore store(TuningPlan p) {
    PrivacyGuarantee fresh =
        budget == null ? null : p.alpha().<PrivacyGuarantee>map(a -> RenyiDp.ofOrder(a, budget)).orElse(new PureDp(budget));
    LedgerLocation ledger = target.location();
    String dataset = target.dataset();
    if (dataset != null && ledger == null) {
      throw new IllegalArgumentException("--dataset needs --ledger");
    }
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

  private String randomness() {
    return seed == null ? "secure" : "seeded(" + seed + "): reproducible, NOT private";
  }

  private String label() {
    return "tune " + plan.getFileName();
  }

  private void print(TuningPlan p, CommandTuning.Result r, PrivacyGuarantee remaining) throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Map<String, Object> doc = new LinkedHashMap<>();
    if (r.run().outcome() instanceof TuningOutcome.Selected<JsonNode> s) {
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
    doc.put("runs", r.run().runs());
    doc.put("candidates", p.candidates().size());
    doc.put("epsilonPrime", p.epsilonPrime());
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("kind", r.guaranteeKind());
    p.alpha().ifPresent(a -> g.put("alpha", a));
    g.put("epsilon", r.epsilon());
    g.put("exAnteEpsilon", r.exAnteEpsilon());
    g.put("private", seed == null);
    doc.put("guarantee", g);
    doc.put("seeded", seed != null);
    doc.put("randomness", randomness());
    if (remaining != null) {
      doc.put("remaining", LedgerAmounts.json(remaining));
    }
    if (target.location() != null) {
      doc.put("ledger", target.location().toString());
    }
    if (json) {
      out.println(Json.write(doc));
    } else {
      Object chosen = doc.get("chosen");
      out.printf("chosen       %s%n",
          chosen == null ? "none (every candidate was dropped)" : ((Map<?, ?>) chosen).get("name")
              + " (score " + Numbers.nearest(((Number) ((Map<?, ?>) chosen).get("score")).doubleValue()) + ")");
      out.printf("runs         %d of %d candidates%n", r.run().runs(), p.candidates().size());
      out.printf("guarantee    epsilon %s, %s%s%n", Numbers.up(r.epsilon()), r.guaranteeKind(),
          seed == null ? "" : " (NOT private: the run was seeded)");
      out.printf("worst case   epsilon %s%n", Numbers.up(r.exAnteEpsilon()));
      out.printf("randomness   %s%n", randomness());
      if (remaining != null) {
        out.printf("remaining    %s%n", LedgerAmounts.text(remaining, RoundingMode.DOWN));
      }
    }
    out.flush();
  }
}
