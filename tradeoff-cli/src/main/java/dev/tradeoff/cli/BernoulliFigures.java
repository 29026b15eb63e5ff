package dev.tradeoff.cli;

import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.amplification.bernoulli.SearchBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Curves of Post_{A,α,k}(ε), the lower bound (5)/(7), the asymptote (2)/(6) and the
 * post-processing bound ε against ε, as in Figures 1–3 of Imola and Chaudhuri, drawn headless with
 * XChart. Post is searched for d = 1 and for dk ≤ 3 (where the Lagrangian certificate closes within
 * the figure budget); certified points are drawn as filled circles, uncertified ones (the lower end
 * of a valid interval) as crosses. Every value is in log space, so the curves run over the whole ε
 * range.
 */
final class BernoulliFigures {

  /** One computed point of a curve. */
  record Row(
      String figure, double alpha, double c, int d, int k, double epsilon, Amplification value) {

    String csv() {
      return String.format(
          Locale.ROOT,
          "%s,%s,%s,%d,%d,%s,%.12g,%.12g,%.12g,%.12g,%s,%.3g",
          figure, alpha, c, d, k, epsilon, value.post(), value.lowerBound(), value.upperBound(),
          value.asymptote(), value.certified(), value.gap());
    }
  }

  static final String CSV_HEADER =
      "figure,alpha,c,d,k,epsilon,post,lowerBound,upperBound,asymptote,certified,gap";

  private BernoulliFigures() {}

  /** ε from 0.1 to {@code max}: fine below 1, then steps of 0.5. */
  static double[] epsilonGrid(double max) {
    List<Double> grid = new ArrayList<>(List.of(0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8));
    for (double e = 1; e <= max + 1e-9; e += 0.5) {
      grid.add(e);
    }
    return grid.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The point for one setting; Post searched for d = 1 or dk ≤ 3 (valid interval otherwise). */
  static Amplification compute(BernoulliSampling setting, double epsilon) {
    boolean search = setting.dimension() == 1 || setting.dimension() * setting.samples() <= 3;
    return setting.amplify(epsilon, new SearchBudget(1e-7, search ? 20_000 : 1));
  }

  /** Whether Post is searched (and so plotted) for this setting. */
  static boolean searched(int d, int k) {
    return d == 1 || d * k <= 3;
  }

  /**
   * One chart: for each (d, k) pair, the lower bound and asymptote, Post when d = 1, and the
   * post-processing line ε. Returns the rows it computed.
   */
  static List<Row> chart(
      String figure, double alpha, double c, int[] dims, int[] samples, double[] grid, Path png)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    XYChart chart =
        new XYChartBuilder()
            .width(800)
            .height(560)
            .title(String.format(Locale.ROOT, "%s: alpha=%s, c=%s", figure, fmt(alpha), fmt(c)))
            .xAxisTitle("epsilon")
            .yAxisTitle("Renyi epsilon after Bernoulli sampling")
            .build();
    chart.getStyler().setMarkerSize(3);
    List<Row> rows = new ArrayList<>();
    XYSeries ppi = chart.addSeries("PPI (epsilon)", grid, grid);
    ppi.setMarker(SeriesMarkers.NONE);
    for (int d : dims) {
      for (int k : samples) {
        BernoulliSampling setting = new BernoulliSampling(alpha, c, d, k);
        String label = "d=" + d + (samples.length > 1 || k > 1 ? ",k=" + k : "");
        double[] lower = new double[grid.length];
        List<Double> certifiedX = new ArrayList<>();
        List<Double> certifiedY = new ArrayList<>();
        List<Double> openX = new ArrayList<>();
        List<Double> openY = new ArrayList<>();
        double[] asym = new double[grid.length];
        for (int i = 0; i < grid.length; i++) {
          Amplification a = compute(setting, grid[i]);
          rows.add(new Row(figure, alpha, c, d, k, grid[i], a));
          lower[i] = a.lowerBound();
          (a.certified() ? certifiedX : openX).add(grid[i]);
          (a.certified() ? certifiedY : openY).add(a.post());
          asym[i] = a.asymptote();
        }
        XYSeries lb = chart.addSeries("LB " + label, grid, lower);
        lb.setMarker(SeriesMarkers.NONE);
        XYSeries as = chart.addSeries("Asympt. " + label, grid, asym);
        as.setMarker(SeriesMarkers.NONE);
        if (searched(d, k) && !certifiedX.isEmpty()) {
          XYSeries p = chart.addSeries("Post " + label, certifiedX, certifiedY);
          p.setMarker(SeriesMarkers.CIRCLE);
          p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        if (searched(d, k) && !openX.isEmpty()) {
          XYSeries p = chart.addSeries("Post (uncertified) " + label, openX, openY);
          p.setMarker(SeriesMarkers.CROSS);
          p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
      }
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return rows;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
