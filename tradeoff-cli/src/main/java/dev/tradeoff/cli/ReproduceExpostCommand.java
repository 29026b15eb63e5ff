package dev.tradeoff.cli;

import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.experiment.AnswerCountExperiment;
import dev.tradeoff.selection.experiment.AnswerCountExperiment.Method;
import dev.tradeoff.selection.experiment.AnswerCountExperiment.Outcome;
import dev.tradeoff.selection.experiment.InvocationCurves;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce expost [--out DIR] [--repetitions R] [--seed S]}: Figure 1 of the
 * ex-post paper (std vs mean of the number of runs, Theorem 11 vs Papernot–Steinke with η = ε′/ε,
 * ε = 0.1, ε′ = 0.01) as {@code figure1.png} and {@code figure1.csv}, and Table 1 (synthetic
 * message boards S8000 … S128000, pure DP, budget 10; Doubling, Noise Reduction, Algorithm 3 run as
 * Theorem 11 states it) as {@code table1.csv} and {@code table1.md}, next to the paper's numbers.
 */
@Command(
    name = "expost",
    mixinStandardHelpOptions = true,
    description = "Figure 1 and Table 1 of 'Private Hyperparameter Tuning with Ex-Post Guarantee'.")
public final class ReproduceExpostCommand implements Callable<Integer> {

  /** The paper's Table 1: precision, answers for Doubling, Noise Reduction, Algorithm 3. */
  private static final double[][] PAPER = {
    {0.911, 14.77, 0.999, 2.22, 0.912, 20.37},
    {0.912, 22.47, 0.999, 4.47, 0.911, 30.63},
    {0.910, 33.96, 0.998, 8.12, 0.905, 45.74},
    {0.909, 50.90, 0.998, 15.14, 0.911, 68.39},
    {0.909, 76.09, 0.997, 27.68, 0.912, 102.1},
  };

  private static final int[] USERS = {8000, 16000, 32000, 64000, 128000};

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce-expost", description = "output directory")
  Path out;

  @Option(names = "--repetitions", defaultValue = "20", description = "runs per dataset and method")
  int repetitions;

  @Option(names = "--seed", defaultValue = "2025", description = "seed of data and noise")
  long seed;

  @Option(names = "--datasets", defaultValue = "5", description = "how many of S8000..S128000")
  int datasets;

  @Override
  public Integer call() throws Exception {
    Inputs.count("--repetitions", repetitions, 1, 1_000_000);
    Inputs.count("--datasets", datasets, 1, USERS.length);
    Inputs.outputDirectory("--out", out);
    PrintWriter console = spec.commandLine().getOut();
    figure1(console);
    table1(console);
    console.flush();
    return 0;
  }

  private void figure1(PrintWriter console) throws Exception {
    List<InvocationCurves.Point> ours = InvocationCurves.theorem11(0.1, 0.01, 1100);
    List<InvocationCurves.Point> ps = InvocationCurves.papernotSteinke(0.1, 0.01, 400);
    Path csv = out.resolve("figure1.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println("curve,parameter,mean,std");
      ours.forEach(p -> w.printf(Locale.ROOT, "theorem11,%s,%s,%s%n", (int) p.parameter(), p.mean(), p.standardDeviation()));
      ps.forEach(p -> w.printf(Locale.ROOT, "papernot-steinke,%s,%s,%s%n", p.parameter(), p.mean(), p.standardDeviation()));
    }
    XYChart chart =
        new XYChartBuilder()
            .width(800)
            .height(600)
            .title("Figure 1: runs of one mechanism, eps = 0.1, eps' = 0.01")
            .xAxisTitle("Expectation")
            .yAxisTitle("Standard Deviation")
            .build();
    chart.getStyler().setXAxisMin(0.0).setXAxisMax(100.0).setYAxisMin(0.0).setYAxisMax(200.0);
    add(chart, "Theorem 11", ours);
    add(chart, "Papernot and Steinke (2022), eta = eps'/eps", ps);
    Path png = out.resolve("figure1.png");
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    int d = InvocationCurves.copiesForMean(0.1, 0.01, 10);
    InvocationCurves.Point at = ours.get(d - 1);
    console.printf(Locale.ROOT, "Figure 1: mean 10 needs d = %d copies (mean %.3f, std %.2f); wrote %s, %s%n",
        d, at.mean(), at.standardDeviation(), png, csv);
  }

  private static void add(XYChart chart, String name, List<InvocationCurves.Point> points) {
    List<InvocationCurves.Point> shown = points.stream().filter(p -> p.mean() <= 100).toList();
    double[] x = shown.stream().mapToDouble(InvocationCurves.Point::mean).toArray();
    double[] y = shown.stream().mapToDouble(InvocationCurves.Point::standardDeviation).toArray();
    chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
  }

  private void table1(PrintWriter console) throws Exception {
    RandomGenerator random = Randomness.seeded(seed);
    StringBuilder md = new StringBuilder();
    md.append("| Dataset | Method | Precision (ours) | Answers (ours) | Precision (paper) | Answers (paper) | Budget on rejected releases (ours) |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    Path csv = out.resolve("table1.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println("dataset,method,precision_mean,precision_std,answers_mean,answers_std,rejected_budget_mean,paper_precision,paper_answers");
      for (int n = 0; n < datasets; n++) {
        for (Method m : Method.values()) {
          Outcome o = AnswerCountExperiment.run(m, USERS[n], repetitions, random);
          double paperPrecision = PAPER[n][2 * m.ordinal()];
          double paperAnswers = PAPER[n][2 * m.ordinal() + 1];
          String dataset = "S" + USERS[n];
          w.printf(Locale.ROOT, "%s,%s,%.4f,%.4f,%.3f,%.3f,%.3f,%s,%s%n", dataset, m,
              Outcome.mean(o.precision()), Outcome.std(o.precision()),
              Outcome.mean(o.answers()), Outcome.std(o.answers()),
              Outcome.mean(o.spentOnRejected()), paperPrecision, paperAnswers);
          md.append(String.format(Locale.ROOT, "| %s | %s | %.3f ± %.2f | %.2f ± %.2f | %s | %s | %.2f |%n",
              dataset, m, Outcome.mean(o.precision()), Outcome.std(o.precision()),
              Outcome.mean(o.answers()), Outcome.std(o.answers()), paperPrecision, paperAnswers,
              Outcome.mean(o.spentOnRejected())));
        }
      }
    }
    Files.writeString(out.resolve("table1.md"), md.toString(), StandardCharsets.UTF_8);
    console.printf("Table 1 (%d repetitions, seed %d; wrote %s and table1.md)%n", repetitions, seed, csv);
    console.print(md);
  }
}
