package dev.tradeoff.experiments.amplification;

import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.amplification.bernoulli.SearchBudget;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Curves of Post_{A,α,k}(ε), the lower bound (5)/(7), the asymptote (2)/(6) and the
 * post-processing bound ε against ε, as in [BernAmp21, Figures 1–3], drawn headless with
 * XChart. Post is searched at every ε for d = 1 and for dk ≤ 3, and on a coarse ε grid for the
 * other (d, k) (Figures 1b, 2b and 3), certified to a gap of 1e-6 with at most 150 000 boxes per
 * point; certified points are drawn as filled circles, uncertified ones (the lower end of a valid
 * interval) as crosses. Every value is in log space, so the curves run over the whole ε range.
 */
public final class BernoulliFigures {

  /** One computed point of a curve. */
  public record Row(
      String figure, double alpha, double c, int d, int k, double epsilon, Amplification value) {

    public String csv() {
      return String.format(
          Locale.ROOT,
          "%s,%s,%s,%d,%d,%s,%.12g,%.12g,%.12g,%.12g,%s,%.3g",
          figure, alpha, c, d, k, epsilon, value.post(), value.lowerBound(), value.upperBound(),
          value.asymptote(), value.certified(), value.gap());
    }
  }

  public static final String CSV_HEADER =
      "figure,alpha,c,d,k,epsilon,post,lowerBound,upperBound,asymptote,certified,gap";

  private BernoulliFigures() {}

  /** ε from 0.1 to {@code max}: fine below 1, then steps of 0.5. */
  public static double[] epsilonGrid(double max) {
    List<Double> grid = new ArrayList<>(List.of(0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8));
    for (double e = 1; e <= max + 1e-9; e += 0.5) {
      grid.add(e);
    }
    return grid.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * ε at which Post is searched for dk ≥ 4 with d ≥ 2 (Figures 1b/2b: d = 5, 15; Figure 3: d = 3, 5
   * with k = 2, 4): a subset of {@link #epsilonGrid}, because one such point costs up to seconds.
   */
  private static final Set<Double> COARSE_EPSILONS =
      Set.of(0.1, 0.3, 0.6, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0);

  /** Boxes the certificate may branch per point. */
  public static final long POINT_BUDGET = 150_000;

  /** The gap every searched point is certified to. */
  public static final double GAP = 1e-6;

  /** The point for one setting: searched where {@link #searched} says so, else the cheap interval. */
  public static Amplification compute(BernoulliSampling setting, double epsilon) {
    boolean search = searched(setting.dimension(), setting.samples(), epsilon);
    return setting.amplify(epsilon, new SearchBudget(GAP, search ? POINT_BUDGET : 1));
  }

  /**
   * Whether Post is searched (and so plotted) at this point: at every ε for d = 1 or dk ≤ 3, and at
   * the coarse ε of {@link #COARSE_EPSILONS} for every other (d, k) (the certificate depends only on
   * dk).
   */
  public static boolean searched(int d, int k, double epsilon) {
    return d == 1 || d * k <= 3 || COARSE_EPSILONS.contains(epsilon);
  }

  /** {@link #chart(String, double, double, int[], int[], double[], Path, BiFunction)}, computing each point in parallel. */
  public static List<Row> chart(
      String figure, double alpha, double c, int[] dims, int[] samples, double[] grid, Path png)
      throws IOException {
    Map<List<Object>, Amplification> values = new ConcurrentHashMap<>();
    for (int d : dims) {
      for (int k : samples) {
        BernoulliSampling setting = new BernoulliSampling(alpha, c, d, k);
        IntStream.range(0, grid.length)
            .parallel()
            .forEach(i -> values.put(List.of(d, k, grid[i]), compute(setting, grid[i])));
      }
    }
    return chart(
        figure, alpha, c, dims, samples, grid, png,
        (s, e) -> values.get(List.of(s.dimension(), s.samples(), e)));
  }

  /**
   * One chart: for each (d, k) pair, the lower bound and asymptote, Post where searched, and the
   * post-processing line ε, with every point's interval taken from {@code value}. Returns its rows.
   */
  public static List<Row> chart(
      String figure,
      double alpha,
      double c,
      int[] dims,
      int[] samples,
      double[] grid,
      Path png,
      BiFunction<BernoulliSampling, Double, Amplification> value)
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
    chart.getStyler().setMarkerSize(5);
    List<Row> rows = new ArrayList<>();
    XYSeries ppi = chart.addSeries("PPI (epsilon)", grid, grid);
    ppi.setMarker(SeriesMarkers.NONE);
    ppi.setLineColor(Color.GRAY);
    int curve = 0;
    for (int d : dims) {
      for (int k : samples) {
        // one hue per (d, k): LB solid, asymptote dashed, Post dots (certified) or crosses
        Color colour = PALETTE[curve++ % PALETTE.length];
        BernoulliSampling setting = new BernoulliSampling(alpha, c, d, k);
        String label = "d=" + d + (samples.length > 1 || k > 1 ? ",k=" + k : "");
        double[] lower = new double[grid.length];
        List<Double> certifiedX = new ArrayList<>();
        List<Double> certifiedY = new ArrayList<>();
        List<Double> openX = new ArrayList<>();
        List<Double> openY = new ArrayList<>();
        double[] asym = new double[grid.length];
        Amplification[] values = new Amplification[grid.length];
        for (int i = 0; i < grid.length; i++) {
          values[i] = value.apply(setting, grid[i]);
        }
        for (int i = 0; i < grid.length; i++) {
          Amplification a = values[i];
          rows.add(new Row(figure, alpha, c, d, k, grid[i], a));
          lower[i] = a.lowerBound();
          if (searched(d, k, grid[i])) {
            (a.certified() ? certifiedX : openX).add(grid[i]);
            (a.certified() ? certifiedY : openY).add(a.post());
          }
          asym[i] = a.asymptote();
        }
        XYSeries lb = chart.addSeries("LB " + label, grid, lower);
        lb.setMarker(SeriesMarkers.NONE);
        lb.setLineColor(colour);
        XYSeries as = chart.addSeries("Asympt. " + label, grid, asym);
        as.setMarker(SeriesMarkers.NONE);
        as.setLineColor(colour);
        as.setLineStyle(SeriesLines.DASH_DASH);
        if (!certifiedX.isEmpty()) {
          XYSeries p = chart.addSeries("Post " + label, certifiedX, certifiedY);
          p.setMarker(SeriesMarkers.CIRCLE);
          p.setMarkerColor(colour);
          p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        if (!openX.isEmpty()) {
          XYSeries p = chart.addSeries("Post (uncertified) " + label, openX, openY);
          p.setMarker(SeriesMarkers.CROSS);
          p.setMarkerColor(colour);
          p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
      }
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return rows;
  }

  /** Curve colours, one per (d, k) of a chart. */
  private static final Color[] PALETTE = {
    new Color(200, 30, 30), new Color(20, 90, 200), new Color(0, 140, 60), new Color(220, 120, 0),
    new Color(150, 0, 150)
  };

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
