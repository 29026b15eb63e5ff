package dev.tradeoff.cli.label;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.beam.cluster.LocalCluster;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.label.LabelPlanReport;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.cli.options.LedgerFlags;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.learning.features.FeatureMap;
import dev.tradeoff.ledger.PrivacyLedger;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff label}: private labels for the user's unlabelled queries from K private
 * teachers trained on their sensitive CSV ({@link LabelJob}), charged to a privacy ledger before
 * anything is written. Exit 0 on success, 2 for bad input, 3 when the spend exceeds the budget or
 * what the ledger has left (nothing written, nothing charged). {@code --plan} prints the
 * derivation and exits without reading a training row or charging anything.
 */
@Command(name = "label", mixinStandardHelpOptions = true,
    description = {"Label QUERIES privately with K teachers trained on TRAIN, as a Beam job; "
        + "writes DIR/labels-*.csv and DIR/manifest.json.",
        "",
        "Model: softmax (multinomial logistic) regression over the features. dp-majority "
            + "(default) and DaRRM train each teacher by DP-SGD (per-example clipping, Poisson "
            + "sampling, Gaussian noise, normalised by a noisy partition size); gnmax trains "
            + "non-private teachers and adds Gaussian noise to every label's vote counts.",
        "Features: numeric columns standardised with the mean and standard deviation of the "
            + "public QUERIES (or mapped from a --range), clipped; string columns hashed; an "
            + "empty cell sets a missing indicator. Training rows are never used for scaling.",
        "Privacy: dp-majority costs (E, D) for any number of queries (the labels are "
            + "post-processing of the DP teachers); gnmax composes its per-label noise over the "
            + "queries; the manifest lists every bound and the run is charged the least."})
public final class LabelCommand implements Callable<Integer> {

  /** Exit status when the spend exceeds the budget or the ledger's remainder. */
  public static final int OVER_BUDGET = 3;

  @Spec CommandSpec spec;

  @Option(names = "--train", required = true,
      description = "Training CSV (header; a label column; features): a file, a directory of "
          + "shards or a glob.")
  String train;

  @Option(names = "--queries", required = true,
      description = "Query CSV (header; an id column; the same features by name): public data.")
  String queries;

  @Option(names = "--out", required = true, description = "Output directory (new or empty).")
  Path out;

  @Option(names = "--epsilon", required = true, converter = PrivacyParameters.Epsilon.class,
      description = "Total epsilon of the run.")
  double epsilon;

  @Option(names = "--delta", required = true, converter = PrivacyParameters.Delta.class,
      description = "Total delta of the run.")
  double delta;

  @Option(names = "--classes", required = true, split = ",",
      description = "The classes, comma-separated (public input: never read from the training "
          + "data); rows with another label are skipped.")
  List<String> classes;

  @Option(names = "--aggregator", defaultValue = "dp-majority",
      converter = PrivacyParameters.AggregatorName.class,
      description = "dp-majority, darrm-opt, darrm-sub or gnmax (default dp-majority).")
  Aggregator aggregator;

  @Option(names = "--teachers", description = "K (default 1 for dp-majority, 11 otherwise; "
      + "odd for DaRRM).")
  Integer teachers;

  @Option(names = "--m", description = "DaRRM's privacy allowance m (default 3, at most K).")
  Double allowance;

  @Option(names = "--label-column", defaultValue = CsvSchema.LABEL,
      description = "The training file's label column (default label).")
  String labelColumn;

  @Option(names = "--id-column", defaultValue = CsvSchema.ID,
      description = "The queries' id column (default id); if the training file has it too, the "
          + "teachers' partition is keyed on it and it is not a feature.")
  String idColumn;

  @Option(names = "--features", split = ",",
      description = "The feature columns (default: every column but the label, the id and "
          + "--ignore).")
  List<String> features = List.of();

  @Option(names = "--ignore", split = ",", description = "Columns that are not features.")
  List<String> ignore = List.of();

  @Option(names = "--categorical", split = ",",
      description = "Feature columns to hash even if numeric.")
  List<String> categorical = List.of();

  @Option(names = "--range", description = "NAME=LOW:HIGH: clip the feature to [LOW, HIGH] and "
      + "map it to [-1, 1] instead of standardising it (repeatable).")
  List<String> ranges = List.of();

  @Option(names = "--hash-buckets", defaultValue = "16",
      description = "Buckets per hashed string column (default 16).")
  int hashBuckets;

  @Option(names = "--feature-clip", defaultValue = "4",
      description = "Standardised values are clipped to +-this (default 4).")
  double featureClip;

  @Option(names = "--epochs", description = "DP-SGD epochs (default 5).")
  Double epochs;

  @Option(names = "--sampling-rate", description = "DP-SGD Poisson sampling rate (default "
      + "0.01).")
  Double samplingRate;

  @Option(names = "--clip", description = "DP-SGD per-example clipping norm (default 1).")
  Double clip;

  @Option(names = "--learning-rate", description = "DP-SGD learning rate (default 0.5).")
  Double learningRate;

  @Option(names = "--plan", description = "Print the derivation and exit: no training row is "
      + "read, nothing is charged or written.")
  boolean planOnly;

  @Mixin LedgerFlags ledger;

  @Option(names = "--runner", defaultValue = "direct",
      converter = PrivacyParameters.RunnerName.class,
      description = "direct, flink or spark (default direct).")
  BeamRunner runner;

  @Option(names = "--master", description = "Submit to a cluster: HOST:PORT of a Flink session "
      + "cluster (`tradeoff cluster up`), spark://HOST:PORT of a Spark master (`tradeoff cluster "
      + "up --engine spark`).")
  String master;

  @Option(names = "--seed", description = "Reproducible run: NOT private, refused with --ledger.")
  Long seed;

  @Option(names = "--overwrite", description = "Write into a non-empty --out.")
  boolean overwrite;

  @Option(names = "--json", description = "Print the manifest (or, with --plan, the plan) as "
      + "JSON.")
  boolean json;

  @Override
  public Integer call() {
    List<String> commandLine = new ArrayList<>(List.of("tradeoff"));
    commandLine.addAll(spec.commandLine().getParseResult().originalArgs());
    BeamRunner beamRunner = runner;
    LabelJob.Request request = request();
    ledger.check(seed, !planOnly);
    if (!planOnly) {
      if (master != null) {
        try {
          beamRunner.remoteOptions(master, 1, List.of()); // checks runner, master, class path
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--" + e.getMessage(), e);
        }
        LocalCluster.requireReachable(master);
      } else if (!beamRunner.available()) {
        beamRunner.options(1);
      }
    }
    var o = spec.commandLine().getOut();
    try (Progress progress = Progress.of(spec)) {
      progress.checking("checking the input, fixing the privacy parameters");
      LabelJob.Plan plan = LabelJob.plan(request);
      if (planOnly) {
        LabelPlanReport report = LabelPlanReport.of(plan);
        o.println(json ? Json.write(report) : report.text());
        o.flush();
        return 0;
      }
      progress.phase("labelling " + plan.queryCount() + " queries on the " + beamRunner.cliName()
          + " runner, spending " + spending(plan));
      int parallelism = Math.max(1, Runtime.getRuntime().availableProcessors());
      var options = master == null ? beamRunner.options(parallelism)
          : beamRunner.remoteOptions(master, parallelism, List.of(applicationJar()));
      LabelManifest manifest;
      try (PrivacyLedger l = ledger.open()) {
        manifest = LabelJob.run(plan, new LabelJob.RunInfo(options, beamRunner.cliName(), master,
            commandLine), l);
      }
      if (json) {
        o.println(manifest.json());
      } else {
        o.println("labelled " + plan.queryCount() + " queries into " + out.toAbsolutePath()
            + " spending " + spending(plan) + (plan.seeded()
            ? " [seeded: not private]" : ""));
      }
      o.flush();
      return 0;
    } catch (BudgetExceededException e) {
      spec.commandLine().getErr().println("tradeoff: " + Shown.line(e.getMessage()));
      return OVER_BUDGET;
    }
  }

  /**
   * The request. --epsilon, --delta, --aggregator and --runner were converted when the arguments
   * were parsed; every other value is checked once, by the record that holds it ({@link
   * LabelPrivacy.Target}, {@link LabelPrivacy.Training}, {@link LabelJob.FeatureOptions}, {@link
   * ClassSet}, {@link LabelJob.Request}), whose parameter names are these flags' names. (The
   * library's Target checks ε and δ again at its own public boundary.)
   */
  private LabelJob.Request request() {
    if (out.toString().isEmpty()) {
      throw new IllegalArgumentException("--out must name a directory, but was empty");
    }
    Aggregator agg = aggregator;
    Map<String, FeatureMap.Range> parsedRanges = new LinkedHashMap<>();
    for (String r : ranges) {
      parsedRanges.put(rangeName(r), range(r));
    }
    LabelPrivacy.Training d = LabelPrivacy.Training.DEFAULT;
    try {
      LabelPrivacy.Target target = new LabelPrivacy.Target(new ApproxDp(epsilon, delta), agg,
          teachers != null ? teachers : agg == Aggregator.DP_MAJORITY ? 1 : 11,
          allowance == null ? OptionalDouble.empty() : OptionalDouble.of(allowance),
          new LabelPrivacy.Training(samplingRate == null ? d.samplingRate() : samplingRate,
              epochs == null ? d.epochs() : epochs, clip == null ? d.clip() : clip,
              learningRate == null ? d.learningRate() : learningRate));
      return new LabelJob.Request(train, queries, out, target, new ClassSet(classes),
          new CsvSchema.Columns(labelColumn, idColumn, features, ignore),
          new LabelJob.FeatureOptions(parsedRanges, new HashSet<>(categorical), hashBuckets,
              featureClip), seed == null ? OptionalLong.empty() : OptionalLong.of(seed),
          overwrite);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + e.getMessage(), e);
    }
  }

  private static String rangeName(String spec) {
    int eq = spec.lastIndexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("--range must be NAME=LOW:HIGH, but was " + spec);
    }
    return spec.substring(0, eq);
  }

  private static FeatureMap.Range range(String spec) {
    String[] bounds = spec.substring(spec.lastIndexOf('=') + 1).split(":", -1);
    try {
      if (bounds.length == 2) {
        double low = Double.parseDouble(bounds[0]);
        double high = Double.parseDouble(bounds[1]);
        if (Double.isFinite(low) && Double.isFinite(high) && low < high) {
          return new FeatureMap.Range(low, high);
        }
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("--range must be NAME=LOW:HIGH with finite LOW < HIGH, "
        + "but was " + spec);
  }

  /** The run's total guarantee as text, rounded up (the safe direction). */
  private static String spending(LabelJob.Plan plan) {
    ApproxDp total = plan.spend();
    return "ε = " + Numbers.up(total.epsilon()) + ", δ = " + Numbers.up(total.delta());
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
