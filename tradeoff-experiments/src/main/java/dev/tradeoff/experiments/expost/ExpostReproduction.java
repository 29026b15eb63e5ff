package dev.tradeoff.experiments.expost;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.experiments.expost.AnswerCountExperiment.Method;
import dev.tradeoff.experiments.expost.AnswerCountExperiment.Outcome;
import dev.tradeoff.mechanisms.random.Randomness;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * [ExPost25, Figure 1] (std vs mean of the number of runs, Theorem 11 vs Papernot–Steinke
 * with η = ε′/ε, ε = 0.1, ε′ = 0.01) as {@code figure1.png} and {@code figure1.csv}, and Table 1
 * (synthetic message boards S8000 … S128000, pure DP, budget 10; Doubling, Noise Reduction,
 * Algorithm 3 run as Theorem 11 states it) as {@code table1.csv} and {@code table1.md}, next to the
 * paper's numbers.
 */
public final class ExpostReproduction {

  /** The paper's Table 1: precision, answers for Doubling, Noise Reduction, Algorithm 3. */
  private static final double[][] PAPER = {
    {0.911, 14.77, 0.999, 2.22, 0.912, 20.37},
    {0.912, 22.47, 0.999, 4.47, 0.911, 30.63},
    {0.910, 33.96, 0.998, 8.12, 0.905, 45.74},
    {0.909, 50.90, 0.998, 15.14, 0.911, 68.39},
    {0.909, 76.09, 0.997, 27.68, 0.912, 102.1},
  };

  private static final int[] USERS = {8000, 16000, 32000, 64000, 128000};

  /** How many datasets Table 1 has (S8000 … S128000). */
  public static final int DATASETS = USERS.length;

  /**
   * Figure 1 as written.
   *
   * @param png the chart
   * @param csv its points
   * @param copies the number of copies d for which Theorem 11's mean number of runs reaches 10
   * @param atMeanTen Theorem 11's point at d = {@code copies}
   */
  public record Figure1(Path png, Path csv, int copies, InvocationCurves.Point atMeanTen) {}

  /**
   * Table 1 as written.
   *
   * @param csv the table as CSV
   * @param markdown the table as Markdown (also written to {@code table1.md})
   */
  public record Table1(Path csv, String markdown) {}

  private ExpostReproduction() {}

  /** Computes Figure 1 and writes {@code figure1.csv} and {@code figure1.png} into out. */
  public static Figure1 figure1(Path out) throws IOException {
    Files.createDirectories(out);
    List<InvocationCurves.Point> ours = InvocationCurves.theorem11(0.1, 0.01, 1100);
    List<InvocationCurves.Point> ps = InvocationCurves.papernotSteinke(0.1, 0.01, 400);
    Path csv = out.resolve("figure1.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println("curve,parameter,mean,std");
      ours.forEach(p -> w.printf(Locale.ROOT, "theorem11,%s,%s,%s%n", (int) p.parameter(), p.mean(), p.standardDeviation()));
      ps.forEach(p -> w.printf(Locale.ROOT, "papernot-steinke,%s,%s,%s%n", p.parameter(), p.mean(), p.standardDeviation()));
    }
    System.setProperty("java.awt.headless", "true");
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
    return new Figure1(png, csv, d, ours.get(d - 1));
  }

  private static void add(XYChart chart, String name, List<InvocationCurves.Point> points) {
    List<InvocationCurves.Point> shown = points.stream().filter(p -> p.mean() <= 100).toList();
    double[] x = shown.stream().mapToDouble(InvocationCurves.Point::mean).toArray();
    double[] y = shown.stream().mapToDouble(InvocationCurves.Point::standardDeviation).toArray();
    chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
  }

  /**
   * Runs Table 1 on the first {@code datasets} message boards, {@code repetitions} runs per dataset
   * and method with data and noise seeded by {@code seed}, and writes {@code table1.csv} and
   * {@code table1.md} into out.
   */
  public static Table1 table1(Path out, int datasets, int repetitions, long seed)
      throws IOException {
    Require.inClosedRange("datasets", datasets, 1, DATASETS);
    Require.positive("repetitions", repetitions);
    Files.createDirectories(out);
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
    return new Table1(csv, md.toString());
  }
}
