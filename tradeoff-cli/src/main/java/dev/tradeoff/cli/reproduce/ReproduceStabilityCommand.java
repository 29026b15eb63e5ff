package dev.tradeoff.cli.reproduce;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.experiments.stability.HistogramSelectionExperiment;
import dev.tradeoff.experiments.stability.HistogramSelectionExperiment.MethodResult;
import dev.tradeoff.experiments.stability.StabilityFigures;
import dev.tradeoff.selection.stability.BetaDensity;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce stability}: the histogram case study of [StabVal13,
 * appendix Section 6.3] end to end. Training and validation data from Beta(a, b); the bin width h ∈
 * {1/5, 1/10, 1/20, 1/50, 1/100} chosen by stability-based selection (Algorithms 1–2 with Algorithm
 * 5 and Theorem 6), alphaSplit, dataSplit and Random (Theorem 5) at the same total α; the true
 * integrated squared error of the released estimate, averaged over seeded repetitions. Prints a
 * table (or JSON) and writes {@code stability.csv}, {@code stability-ise.png} and
 * {@code stability-choices.png}.
 */
@Command(
    name = "stability",
    mixinStandardHelpOptions = true,
    description = "Stability-based private validation: the histogram bin-width case study.")
public final class ReproduceStabilityCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce-stability", description = "output directory")
  Path out;

  @Option(names = "--seeds", defaultValue = "100", description = "repetitions (seeded)")
  int seeds;

  @Option(names = "--seed", defaultValue = "1", description = "first seed")
  long seed;

  @Option(names = "--n", defaultValue = "20000", description = "training-set size")
  int n;

  @Option(names = "--m", defaultValue = "20000", description = "validation-set size")
  int m;

  @Option(names = "--alpha", defaultValue = "1.0", converter = PrivacyParameters.Epsilon.class,
      description = "total privacy of every method")
  double alpha;

  @Option(names = "--delta", defaultValue = "1e-6", converter = PrivacyParameters.Delta.class,
      description = "delta of the stability method")
  double delta;

  @Option(names = "--split", defaultValue = "0.5",
      description = "fraction of alpha the stability method spends on training")
  double split;

  @Option(names = "--beta-a", defaultValue = "2", description = "Beta shape a of the data")
  double betaA;

  @Option(names = "--beta-b", defaultValue = "5", description = "Beta shape b of the data")
  double betaB;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Inputs.count("--seeds", seeds, 1, 100_000);
    Inputs.count("--n", n, 1, 100_000_000);
    Inputs.count("--m", m, 1, 100_000_000);
    Inputs.fraction("--split", split, "the share of --alpha spent on training");
    Inputs.range("--beta-a", betaA, 0.05, 1000, "a Beta shape: larger ones make the density underflow");
    Inputs.range("--beta-b", betaB, 0.05, 1000, "a Beta shape: larger ones make the density underflow");
    Inputs.outputDirectory("--out", out);
    HistogramSelectionExperiment experiment = new HistogramSelectionExperiment(
        new BetaDensity(betaA, betaB), n, m, alpha, delta, split,
        HistogramSelectionExperiment.PAPER_BIN_COUNTS, seeds, seed);
    // said once the experiment has checked its parameters: a refusal prints no progress
    Progress.of(spec).expect(60.0 * seeds / 100 * (n + m) / 40_000.0, "60 s measured for 100"
        + " seeds of n = m = 20000 on 2 cores at load 17, scaled to these");
    Progress.of(spec).phase("running " + seeds + " seeds");
    HistogramSelectionExperiment.Result result = experiment.run();
    StabilityFigures.Written files = StabilityFigures.write(experiment, result, out);
    List<String> labels = StabilityFigures.binWidthLabels(experiment);
    int[] bins = experiment.binCounts();

    PrintWriter console = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("truth", "Beta(" + betaA + ", " + betaB + ")");
      doc.put("n", n);
      doc.put("m", m);
      doc.put("alpha", alpha);
      doc.put("seeds", seeds);
      doc.put("binWidths", labels);
      doc.put("beta1", result.stability().beta1());
      doc.put("beta2", result.stability().beta2());
      doc.put("noiseMean", result.noiseMean());
      List<Map<String, Object>> rows = new ArrayList<>();
      for (MethodResult r : result.methods()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("method", r.method().name());
        row.put("epsilon", r.guarantee().epsilon());
        row.put("delta", r.guarantee().delta());
        row.put("meanIse", r.meanIse());
        row.put("standardError", r.standardError());
        row.put("chosen", r.chosen());
        rows.add(row);
      }
      doc.put("methods", rows);
      doc.put("fixedIse", result.fixedIse());
      doc.put("files", files.all().stream().map(Path::toString).toList());
      console.println(Json.write(doc));
    } else {
      console.printf("Histogram bin width by private validation: Beta(%s, %s), n = %d, m = %d,"
          + " total alpha = %s, %d seeds%n", betaA, betaB, n, m, alpha, seeds);
      console.printf("Theorem 6: beta1 = %.4g, beta2 = %.4g, delta = %s; exponential noise mean"
          + " 2 beta/alpha2 = %.4g%n%n", result.stability().beta1(), result.stability().beta2(),
          delta, result.noiseMean());
      console.printf("%-12s  %-16s  %-12s  %-10s  %s%n", "method", "guarantee", "mean ISE",
          "std err", "times chosen h = " + String.join(" ", labels));
      for (MethodResult r : result.methods()) {
        console.printf("%-12s  %-16s  %-12.5g  %-10.3g  %s%n", r.method(),
            "(" + r.guarantee().epsilon() + ", " + r.guarantee().delta() + ")", r.meanIse(),
            r.standardError(), Arrays.toString(r.chosen()));
      }
      console.println();
      for (int i = 0; i < bins.length; i++) {
        console.printf("fixed h = %-5s at alpha on all of T: mean ISE %.5g%n", labels.get(i),
            result.fixedIse()[i]);
      }
      console.printf("%nwrote %s, %s, %s%n", files.csv(), files.isePng(), files.choicesPng());
    }
    console.flush();
    return 0;
  }
}
