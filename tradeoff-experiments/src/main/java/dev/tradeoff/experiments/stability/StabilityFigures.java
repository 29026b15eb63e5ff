package dev.tradeoff.experiments.stability;

import dev.tradeoff.experiments.stability.HistogramSelectionExperiment.MethodResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The files of the histogram case study of [StabVal13, appendix Section 6.3]:
 * {@code stability.csv}, {@code stability-ise.png} (mean integrated squared error per method) and
 * {@code stability-choices.png} (how often each bin width was chosen), drawn headless with XChart.
 */
public final class StabilityFigures {

  /**
   * The files written.
   *
   * @param csv one row per method and per fixed bin width
   * @param isePng the mean ISE per method, with ± 2 standard errors
   * @param choicesPng the chosen bin widths per method
   */
  public record Written(Path csv, Path isePng, Path choicesPng) {

    /** The three paths, in the order above. */
    public List<Path> all() {
      return List.of(csv, isePng, choicesPng);
    }
  }

  private StabilityFigures() {}

  /** The bin widths "1/b" of the experiment's bin counts b, as labels. */
  public static List<String> binWidthLabels(HistogramSelectionExperiment experiment) {
    List<String> labels = new ArrayList<>();
    for (int b : experiment.binCounts()) {
      labels.add("1/" + b);
    }
    return List.copyOf(labels);
  }

  /** Writes the CSV and both charts of {@code result} into {@code out}. */
  public static Written write(HistogramSelectionExperiment experiment,
      HistogramSelectionExperiment.Result result, Path out) throws IOException {
    Files.createDirectories(out);
    List<String> labels = binWidthLabels(experiment);
    double alpha = experiment.alpha();
    Path csv = out.resolve("stability.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println("method,epsilon,delta,mean_ise,standard_error," + String.join(",",
          labels.stream().map(l -> "chose_h=" + l).toList()));
      for (MethodResult r : result.methods()) {
        w.println(r.method() + "," + r.guarantee().epsilon() + "," + r.guarantee().delta() + ","
            + r.meanIse() + "," + r.standardError() + ","
            + String.join(",", Arrays.stream(r.chosen()).mapToObj(Integer::toString).toList()));
      }
      for (int i = 0; i < labels.size(); i++) {
        w.println("FIXED_h=" + labels.get(i) + "," + alpha + ",0.0," + result.fixedIse()[i] + ",,");
      }
    }
    Path isePng = out.resolve("stability-ise.png");
    Path choicesPng = out.resolve("stability-choices.png");
    writeCharts(result, labels, alpha, experiment.repetitions(), isePng, choicesPng);
    return new Written(csv, isePng, choicesPng);
  }

  private static void writeCharts(HistogramSelectionExperiment.Result result, List<String> labels,
      double alpha, int seeds, Path isePng, Path choicesPng) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> names = new ArrayList<>();
    List<Double> means = new ArrayList<>();
    List<Double> errors = new ArrayList<>();
    for (MethodResult r : result.methods()) {
      names.add(r.method().name());
      means.add(r.meanIse());
      errors.add(2 * r.standardError());
    }
    CategoryChart ise = new CategoryChartBuilder().width(800).height(500)
        .title("Mean ISE of the released histogram (alpha = " + alpha + ", " + seeds + " seeds)")
        .xAxisTitle("method").yAxisTitle("mean ||f_hat - f||^2 (+- 2 s.e.)").build();
    ise.getStyler().setLegendVisible(false);
    ise.addSeries("mean ISE", names, means, errors);
    BitmapEncoder.saveBitmap(ise, isePng.toString(), BitmapEncoder.BitmapFormat.PNG);

    CategoryChart choices = new CategoryChartBuilder().width(800).height(500)
        .title("Chosen bin width h").xAxisTitle("h").yAxisTitle("times chosen").build();
    for (MethodResult r : result.methods()) {
      choices.addSeries(r.method().name(), labels,
          Arrays.stream(r.chosen()).boxed().map(Integer::doubleValue).toList());
    }
    BitmapEncoder.saveBitmap(choices, choicesPng.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
