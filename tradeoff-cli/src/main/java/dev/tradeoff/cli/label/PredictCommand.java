package dev.tradeoff.cli.label;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.io.BuildVersion;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.experiments.predict.KnowledgeTransfer;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Accuracy;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Privacy;
import dev.tradeoff.experiments.predict.PredictReport;
import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.FashionMnist;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff predict}: private prediction from private teachers ([DaRRM24, Section 6.2],
 * Tables 1 and 2) on the shipped Fashion-MNIST 5-vs-8 subset, Debian's Fashion-MNIST or a directory
 * of IDX files, aggregated on a Beam runner.
 */
@Command(name = "predict", mixinStandardHelpOptions = true,
    description = {"Train K private teachers, answer Q queries with a private majority (GNMax, "
        + "DaRRM gamma_Sub, DaRRM gamma_opt) on a Beam runner, and report accuracy and privacy "
        + "[DaRRM24, Section 6.2, Tables 1 and 2]."})
public final class PredictCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--data", defaultValue = "subset",
      description = "subset (shipped 7x7 classes 5 and 8), fashion-mnist (Debian's "
          + "dataset-fashion-mnist) or a directory of IDX files (default: subset).")
  String data;

  @Option(names = "--classes", defaultValue = "5,8", split = ",",
      description = "The two classes: negative,positive (default 5,8).")
  List<Integer> classes;

  @Option(names = "--teachers", defaultValue = "11", description = "K, odd (default 11).")
  int teachers;

  @Option(names = "--m", defaultValue = "3", description = "Privacy allowance m (default 3).")
  double allowance;

  @Option(names = "--teacher-epsilon", converter = PrivacyParameters.Epsilon.class,
      description = "Per-teacher epsilon target; DP-SGD sigma is calibrated to it.")
  Double teacherEpsilon;

  @Option(names = "--teacher-delta", defaultValue = "1e-4",
      converter = PrivacyParameters.Delta.class,
      description = "Per-teacher Delta (default 1e-4).")
  double teacherDelta;

  @Option(names = "--sigma", defaultValue = "12",
      description = "DP-SGD noise multiplier when --teacher-epsilon is absent (default 12).")
  double sigma;

  @Option(names = "--clip", defaultValue = "1", description = "DP-SGD clipping norm (default 1).")
  double clip;

  @Option(names = "--epochs", defaultValue = "5", description = "DP-SGD epochs (default 5).")
  double epochs;

  @Option(names = "--queries", defaultValue = "20,50,100", split = ",",
      description = "Values of Q (default 20,50,100).")
  List<Integer> queries;

  @Option(names = "--repeats", defaultValue = "10",
      description = "Draws of the Q queries (default 10).")
  int repeats;

  @Option(names = "--runner", defaultValue = "direct",
      converter = PrivacyParameters.RunnerName.class,
      description = "direct, spark or flink (default direct).")
  BeamRunner runner;

  @Option(names = "--seed", description = "Reproducible run (testing only; default: SecureRandom).")
  Long seed;

  @Option(names = "--budget", paramLabel = "EPSILON,DELTA",
      converter = PrivacyParameters.Budget.class,
      description = "EPSILON,DELTA: refuse to run if one deployment of Q queries would exceed it.")
  ApproxDp budget;

  @Option(names = "--report", description = "Directory for report.html and PNG plots.")
  Path report;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public void run() {
    if (classes.size() != 2) {
      throw new IllegalArgumentException("classes must be two labels NEGATIVE,POSITIVE, but was "
          + classes);
    }
    KnowledgeTransfer.Config config = config();
    validate(); // after: a refused value never leaves a --report directory behind
    BeamRunner beamRunner = runner;
    if (!beamRunner.available()) {
      beamRunner.options(1); // throws the one-line message naming what is missing
    }
    BinaryTask task = load(data, classes.get(0), classes.get(1));
    KnowledgeTransfer.validate(config, task);
    Path work;
    try {
      work = Files.createTempDirectory("tradeoff-predict");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Progress progress = Progress.of(spec);
    KnowledgeTransfer.Result result;
    try {
      result = KnowledgeTransfer.run(config, task, progress::phase, work);
    } finally {
      try {
        Files.deleteIfExists(work); // emptied by the run, also when it fails
      } catch (IOException e) {
        // a leftover empty temporary directory is harmless
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(toJson(result, seed));
    } else {
      printTables(out, result, config);
    }
    if (report != null) {
      PredictReport.write(report, result, config, new PredictReport.Provenance(
          "tradeoff " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs()),
          BuildVersion.version()));
      if (!json) {
        out.println("report: " + report.resolve("report.html"));
      }
    }
    out.flush();
  }

  /**
   * The flags the experiment's records do not hold, checked before any data is read or any
   * teacher trained.
   */
  private void validate() {
    for (int c : classes) {
      Inputs.count("--classes", c, 0, 9);
    }
    if (classes.get(0).equals(classes.get(1))) {
      throw new IllegalArgumentException("--classes must be two different labels, but was " + classes);
    }
    if (report != null) {
      Inputs.outputDirectory("--report", report);
    }
  }

  /**
   * The experiment. Each value is checked once, by the record that holds it ({@link
   * KnowledgeTransfer.Training}, {@link KnowledgeTransfer.Config}), whose parameter names are
   * these flags' names; ε, δ, the budget and the runner were converted when parsed.
   */
  private KnowledgeTransfer.Config config() {
    try {
      KnowledgeTransfer.Training training = new KnowledgeTransfer.Training(
          teacherEpsilon == null ? Double.NaN : teacherEpsilon, teacherDelta, sigma, clip,
          epochs);
      return new KnowledgeTransfer.Config(teachers, allowance, training, queries, repeats, runner,
          seed == null ? OptionalLong.empty() : OptionalLong.of(seed),
          Optional.ofNullable(budget));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + e.getMessage(), e);
    }
  }

  /** The data source, resolved before any work: every bad input fails here with one line. */
  static BinaryTask load(String data, int negative, int positive) {
    return switch (data) {
      case "subset" -> BinaryTask.shipped(negative, positive);
      case "fashion-mnist" -> {
        if (!Files.isDirectory(FashionMnist.DEBIAN_DIRECTORY)) {
          throw new IllegalArgumentException("data fashion-mnist needs Debian's "
              + "dataset-fashion-mnist package (" + FashionMnist.DEBIAN_DIRECTORY
              + " does not exist)");
        }
        yield BinaryTask.fromDirectory(FashionMnist.DEBIAN_DIRECTORY, negative, positive);
      }
      default -> {
        Path dir = Path.of(data);
        if (!Files.isDirectory(dir)) {
          throw new IllegalArgumentException("data must be subset, fashion-mnist or an existing "
              + "directory of IDX files, but " + dir + " does not exist");
        }
        yield BinaryTask.fromDirectory(dir, negative, positive);
      }
    };
  }

  static String randomness(Long seed) {
    return seed == null ? "secure" : "seeded(" + seed + "): reproducible, NOT private";
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }

  private static void printTables(PrintWriter out, KnowledgeTransfer.Result r,
      KnowledgeTransfer.Config c) {
    out.printf(Locale.ROOT, "Data: %d training, %d test examples; K = %d teachers, m = %s%n",
        r.trainSize(), r.testSize(), c.teachers(), PredictReport.plain(c.allowance()));
    out.println("Randomness: " + randomness(c.seed().isPresent() ? c.seed().getAsLong() : null));
    out.printf(Locale.ROOT, "Each DP-SGD teacher: (epsilon, Delta) = (%s, %s) (PLD accountant)%n",
        fmt(r.teacher().epsilon()), fmt(r.teacher().delta()));
    out.printf(Locale.ROOT, "Each label: (epsilon, delta) = (%s, %s); GNMax sigma = %s "
        + "(non-private teachers, majority accuracy %.3f)%n", fmt(r.setting().target().epsilon()),
        fmt(r.setting().target().delta()), fmt(r.gnmaxSigma()), r.nonPrivateMajorityAccuracy());
    out.println();
    out.printf(Locale.ROOT, "Table 1: accuracy of the Q released labels, mean (std) over %d "
        + "draws%n", c.repeats());
    out.println(String.format(Locale.ROOT, "%-8s %-16s %-16s %-16s", "Q",
        Aggregator.GNMAX.label(), Aggregator.DARRM_SUB.label(), Aggregator.DARRM_OPT.label())
        .stripTrailing());
    for (int q : c.queries()) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8d", q));
      for (Aggregator a : KnowledgeTransfer.TABLE1) {
        Accuracy acc = PredictReport.accuracy(r, q, a);
        row.append(String.format(Locale.ROOT, " %-16s",
            String.format(Locale.ROOT, "%.3f (%.3f)", acc.mean(), acc.std())));
      }
      out.println(row.toString().stripTrailing());
    }
    out.println();
    out.println("Table 2: privacy per query and total over Q (rounded up)");
    out.println(String.format(Locale.ROOT, "%-8s %-22s %-30s %-34s %s", "Q", "per query",
        "total, general comp. (d'=1e-4)", "total, accountant [method]",
        "post-processing (DP teachers, any Q)"));
    for (Privacy p : r.privacy()) {
      out.printf(Locale.ROOT, "%-8d %-22s %-30s %-34s %s%n", p.queries(),
          PredictReport.pair(p.perQuery()), PredictReport.pair(p.totalGeneral()),
          PredictReport.pair(p.totalAccountant()) + " [" + p.accountant() + "]",
          PredictReport.pair(p.postProcessing()));
    }
  }

  private static String toJson(KnowledgeTransfer.Result r, Long seed) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("trainSize", r.trainSize());
    m.put("testSize", r.testSize());
    m.put("teacher", Map.of("epsilon", r.teacher().epsilon(), "delta", r.teacher().delta()));
    m.put("perQuery", Map.of("epsilon", r.setting().target().epsilon(),
        "delta", r.setting().target().delta()));
    m.put("gnmaxSigma", r.gnmaxSigma());
    m.put("gammaSub", r.gammaSub());
    m.put("gammaOpt", r.gammaOpt());
    m.put("nonPrivateMajorityAccuracy", r.nonPrivateMajorityAccuracy());
    List<Map<String, Object>> acc = new ArrayList<>();
    for (Accuracy a : r.accuracy()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("queries", a.queries());
      row.put("aggregator", a.aggregator().label());
      row.put("meanAccuracy", a.mean());
      row.put("stdAccuracy", a.std());
      acc.add(row);
    }
    m.put("accuracy", acc);
    List<Map<String, Object>> priv = new ArrayList<>();
    for (Privacy p : r.privacy()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("queries", p.queries());
      row.put("totalGeneral", Map.of("epsilon", p.totalGeneral().epsilon(),
          "delta", p.totalGeneral().delta()));
      row.put("totalAccountant", Map.of("epsilon", p.totalAccountant().epsilon(),
          "delta", p.totalAccountant().delta(), "method", p.accountant()));
      row.put("postProcessing", Map.of("epsilon", p.postProcessing().epsilon(),
          "delta", p.postProcessing().delta()));
      priv.add(row);
    }
    m.put("privacy", priv);
    m.put("seeded", seed != null);
    m.put("randomness", randomness(seed));
    return Json.write(m);
  }
}
