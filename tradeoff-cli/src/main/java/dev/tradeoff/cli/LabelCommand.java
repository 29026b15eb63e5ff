package dev.tradeoff.cli;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.cluster.FlinkSessionCluster;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.ledger.SqliteLedger;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff label}: private labels for the user's unlabelled queries from K private
 * teachers trained on their sensitive CSV ({@link LabelJob}), charged to a privacy ledger before
 * anything is written. Exit 0 on success, 2 for bad input, 3 when the spend exceeds the budget or
 * what the ledger has left (nothing written, nothing charged).
 */
@Command(name = "label", mixinStandardHelpOptions = true,
    description = {"Label QUERIES privately with K teachers trained on TRAIN (PATE-style "
        + "knowledge transfer with DaRRM or GNMax), as a Beam job; writes DIR/labels-*.csv and "
        + "DIR/manifest.json."})
public final class LabelCommand implements Callable<Integer> {

  /** Exit status when the spend exceeds the budget or the ledger's remainder. */
  public static final int OVER_BUDGET = 3;

  @Spec CommandSpec spec;

  @Option(names = "--train", required = true,
      description = "Training CSV (header; a label column; numeric features): a file, a "
          + "directory of shards or a glob.")
  String train;

  @Option(names = "--queries", required = true,
      description = "Query CSV (header; an id column; the same features by name).")
  String queries;

  @Option(names = "--out", required = true, description = "Output directory (new or empty).")
  Path out;

  @Option(names = "--epsilon", required = true, description = "Total epsilon of the run.")
  double epsilon;

  @Option(names = "--delta", required = true, description = "Total delta of the run.")
  double delta;

  @Option(names = "--teachers", defaultValue = "11", description = "K (default 11; odd for "
      + "DaRRM).")
  int teachers;

  @Option(names = "--aggregator", defaultValue = "darrm-opt",
      description = "darrm-opt, darrm-sub or gnmax (default darrm-opt).")
  String aggregator;

  @Option(names = "--m", description = "DaRRM's privacy allowance m (default 3, at most K).")
  Double allowance;

  @Option(names = "--ledger", description = "Privacy ledger (SQLite) to charge the run to.")
  Path ledger;

  @Option(names = "--ledger-budget", split = ",",
      description = "EPSILON,DELTA: create the ledger with this total budget.")
  List<Double> ledgerBudget;

  @Option(names = "--runner", defaultValue = "direct",
      description = "direct, flink or spark (default direct).")
  String runner;

  @Option(names = "--master", description = "HOST:PORT of a Flink session cluster "
      + "(`tradeoff cluster up`).")
  String master;

  @Option(names = "--seed", description = "Reproducible run: NOT private, refused with --ledger.")
  Long seed;

  @Option(names = "--overwrite", description = "Write into a non-empty --out.")
  boolean overwrite;

  @Option(names = "--json", description = "Print the manifest as JSON.")
  boolean json;

  /** The arguments as given, for the manifest. */
  private List<String> commandLine = List.of();

  @Override
  public Integer call() {
    commandLine = new ArrayList<>(List.of("tradeoff"));
    commandLine.addAll(spec.commandLine().getParseResult().originalArgs());
    BeamRunner beamRunner = BeamRunner.parse(runner);
    Aggregator agg = Aggregator.parse(aggregator);
    if (ledgerBudget != null && ledgerBudget.size() != 2) {
      throw new IllegalArgumentException("ledger-budget must be EPSILON,DELTA, but was "
          + ledgerBudget);
    }
    if (ledgerBudget != null && ledger == null) {
      throw new IllegalArgumentException("ledger-budget needs --ledger FILE");
    }
    if (seed != null && ledger != null) {
      throw new IllegalArgumentException("seed must not be combined with --ledger: a seeded run's "
          + "noise is determined by its seed, so it is not private and cannot be charged as such");
    }
    Inputs.epsilon("--epsilon", epsilon);
    Inputs.delta("--delta", delta);
    Inputs.count("--teachers", teachers, 1, EnsembleSetting.MAX_TEACHERS);
    if (allowance != null) {
      Inputs.range("--m", allowance, 1, teachers, "the privacy allowance, between 1 and --teachers");
    }
    if (ledgerBudget != null) {
      Inputs.epsilon("--ledger-budget epsilon", ledgerBudget.get(0));
      Inputs.delta("--ledger-budget delta", ledgerBudget.get(1));
    }
    if (ledger != null) {
      Inputs.ledgerToWrite("--ledger", ledger);
    }
    if (master != null) {
      beamRunner.remoteOptions(master, 1, List.of()); // checks runner and class path
      FlinkSessionCluster.requireReachable(master);
    } else if (!beamRunner.available()) {
      beamRunner.options(1);
    }
    ApproxDp budget = new ApproxDp(epsilon, delta);
    if (ledger != null) {
      checkLedger();
    }
    LabelJob.Request request = new LabelJob.Request(train, queries, out, budget, teachers, agg,
        allowance == null ? Double.NaN : allowance, LabelPrivacy.Training.DEFAULT,
        seed == null ? OptionalLong.empty() : OptionalLong.of(seed), overwrite);
    try (Progress progress = Progress.of(spec)) {
      progress.phase("checking the input, fixing the privacy parameters");
      LabelJob.Plan plan = LabelJob.plan(request);
      progress.phase("labelling " + plan.queryCount() + " queries from " + plan.trainRows()
          + " training rows on the " + beamRunner.cliName() + " runner, spending "
          + spending(plan));
      int parallelism = Math.max(1, Runtime.getRuntime().availableProcessors());
      var options = master == null ? beamRunner.options(parallelism)
          : beamRunner.remoteOptions(master, parallelism, List.of(applicationJar()));
      Map<String, Object> manifest;
      try (SqliteLedger l = ledger == null ? null : openLedger()) {
        manifest = LabelJob.run(plan, new LabelJob.RunInfo(options, beamRunner.cliName(), master,
            commandLine), l);
      }
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(manifest));
      } else {
        o.println("labelled " + plan.queryCount() + " queries into " + out.toAbsolutePath()
            + " spending " + spending(plan) + (plan.seeded()
            ? " [seeded: not private]" : ""));
      }
      o.flush();
      return 0;
    } catch (BudgetExceededException e) {
      spec.commandLine().getErr().println("tradeoff: " + e.getMessage());
      return OVER_BUDGET;
    }
  }

  /** The run's total guarantee as text, rounded up (the safe direction). */
  private static String spending(LabelJob.Plan plan) {
    ApproxDp total = plan.spend().total();
    return "ε = " + Numbers.up(total.epsilon()) + ", δ = " + Numbers.up(total.delta());
  }

  private void checkLedger() {
    if (ledgerBudget == null && !Files.isRegularFile(ledger)) {
      throw new IllegalArgumentException("ledger " + ledger + " does not exist; pass "
          + "--ledger-budget EPSILON,DELTA to create it");
    }
    if (Files.isRegularFile(ledger)) {
      try (SqliteLedger l = openLedger()) {
        if (!(l.budget() instanceof ApproxDp)) {
          throw new IllegalArgumentException("ledger " + ledger + " must hold an (epsilon, "
              + "delta) budget, but holds " + l.budget());
        }
      }
    }
  }

  /** The ledger: opened, or created with --ledger-budget. */
  private SqliteLedger openLedger() {
    return ledgerBudget == null ? SqliteLedger.open(ledger)
        : SqliteLedger.openOrCreate(ledger, new ApproxDp(ledgerBudget.get(0),
            ledgerBudget.get(1)));
  }

  private static String applicationJar() {
    try {
      return Path.of(LabelJob.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
