package dev.tradeoff.experiments.shuffle;

import dev.tradeoff.accounting.fdp.ApproxDpTradeoff;
import dev.tradeoff.accounting.fdp.GaussianTradeoff;
import dev.tradeoff.shuffle.analysis.CheuBound;
import dev.tradeoff.shuffle.analysis.CompoundBinomial;
import dev.tradeoff.shuffle.analysis.FeldmanMcMillanTalwar;
import dev.tradeoff.shuffle.analysis.PaperTradeoff;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * [ShuffleGDP21, Figure 1], redrawn headless with XChart, with the exact worst-case curve added:
 * (a)/(c) type I against type II error, (b)/(d) ε against δ.
 */
public final class ShuffleFigures {

  /** δ candidates for drawing the Cheu et al. (ε, δ) curve: the smallest one where it applies. */
  private static final double[] CHEU_DELTAS = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2};

  private ShuffleFigures() {}

  /** Type I vs type II error: perfect privacy, paper, Cheu et al., exact (Figure 1 (a)/(c)). */
  public static void tradeoffChart(ShuffleReport report, String title, Path png) throws IOException {
    XYChart chart = chart(title, "Type I error", "Type II error");
    line(chart, "perfect privacy (1 - alpha)", new double[] {0, 1}, new double[] {1, 0});
    int bits = report.bits();
    if (bits == 1) {
      double[][] step = paperStep(report.parameters());
      line(chart, String.format(Locale.ROOT, "paper, Theorem 2 (%s)",
          report.paper().validLowerBound() ? "valid" : "NOT a valid bound"), step[0], step[1]);
    } else {
      double[][] composed = transpose(report.paper().tradeoff());
      line(chart, String.format(Locale.ROOT, "paper, Theorem 3: f^(x%d) (%s)", bits,
          report.paper().validLowerBound() ? "valid" : "NOT a valid bound"), composed[0],
          composed[1]);
      double[][] g = transpose(ShuffleReport.gaussianPoints(report.paper().mu()));
      line(chart, String.format(Locale.ROOT, "paper, Cor. 3.3: G_%.3f", report.paper().mu()),
          g[0], g[1]);
    }
    for (double delta : CHEU_DELTAS) {
      OptionalDouble eps = CheuBound.protocolEpsilon(report.parameters(), delta / bits);
      if (eps.isPresent()) {
        ApproxDpTradeoff f = new ApproxDpTradeoff(bits * eps.getAsDouble(), delta);
        double[][] pts = sample(f::beta);
        line(chart, String.format(Locale.ROOT, "Cheu et al. (%.3f, %s)%s", bits * eps.getAsDouble(),
            delta, bits > 1 ? ", basic composition" : ""), pts[0], pts[1]);
        break;
      }
    }
    double[][] exact = transpose(report.exact().tradeoff());
    line(chart, String.format(Locale.ROOT, "exact worst case (mu = %.3f)", report.exact().mu()),
        exact[0], exact[1]);
    save(chart, png);
  }

  /** ε against δ (log scale): paper via Corollary 2.5, exact, Cheu et al., FMT (Figure 1 (b)/(d)). */
  public static void epsilonDeltaChart(ShuffleReport report, String title, Path png) throws IOException {
    XYChart chart = chart(title, "delta", "epsilon");
    chart.getStyler().setXAxisLogarithmic(true);
    int bits = report.bits();
    double[] deltas = new double[41];
    for (int i = 0; i < deltas.length; i++) {
      deltas[i] = Math.pow(10, -10 + 9.0 * i / (deltas.length - 1));
    }
    ShuffleParameters parameters = report.parameters();
    GaussianTradeoff paper = new GaussianTradeoff(report.paper().mu());
    addEpsilons(chart, String.format(Locale.ROOT, "paper, mu = %.3f (Cor. 2.5)", paper.mu()),
        deltas, d -> paper.profile().epsilon(d));
    addEpsilons(chart, "Cheu et al. (Claim C.1)" + (bits > 1 ? ", basic composition" : ""),
        deltas, d -> {
          OptionalDouble e = CheuBound.protocolEpsilon(parameters, d / bits);
          return e.isPresent() ? bits * e.getAsDouble() : Double.NaN;
        });
    if (bits == 1) {
      FeldmanMcMillanTalwar fmt =
          new FeldmanMcMillanTalwar(parameters.users(), parameters.localEpsilon());
      addEpsilons(chart, "Feldman-McMillan-Talwar (generic)", deltas, fmt::epsilon);
    }
    if (report.exact().curve() != null) {
      addEpsilons(chart, "exact worst case", deltas, d -> report.exact().curve().epsilon(d));
    } else {
      GaussianTradeoff g = new GaussianTradeoff(report.exact().mu());
      addEpsilons(chart, "exact one bit, GDP composition", deltas, d -> g.profile().epsilon(d));
    }
    save(chart, png);
  }

  /** The step function of Theorem 2: β = 1 − F(k + 1) on (F(k − 1), F(k)]. */
  static double[][] paperStep(ShuffleParameters parameters) {
    CompoundBinomial c = new PaperTradeoff(parameters).compoundBinomial();
    int n = parameters.users();
    List<double[]> pts = new ArrayList<>();
    double left = 0;
    for (int k = 0; k < n; k++) {
      double value = c.survival(k + 1);
      pts.add(new double[] {left, value});
      pts.add(new double[] {c.cdf(k), value});
      left = c.cdf(k);
    }
    pts.add(new double[] {1, 0});
    return transpose(pts.toArray(new double[0][]));
  }

  private interface Curve {
    double at(double x);
  }

  private static void addEpsilons(XYChart chart, String name, double[] deltas, Curve epsilon) {
    List<double[]> pts = new ArrayList<>();
    for (double d : deltas) {
      double e = epsilon.at(d);
      if (Double.isFinite(e)) {
        pts.add(new double[] {d, e});
      }
    }
    if (!pts.isEmpty()) {
      double[][] t = transpose(pts.toArray(new double[0][]));
      line(chart, name, t[0], t[1]);
    }
  }

  private static double[][] sample(Curve f) {
    int m = 401;
    double[] x = new double[m];
    double[] y = new double[m];
    for (int i = 0; i < m; i++) {
      x[i] = (double) i / (m - 1);
      y[i] = f.at(x[i]);
    }
    return new double[][] {x, y};
  }

  private static double[][] transpose(double[][] points) {
    double[] x = new double[points.length];
    double[] y = new double[points.length];
    for (int i = 0; i < points.length; i++) {
      x[i] = points[i][0];
      y[i] = points[i][1];
    }
    return new double[][] {x, y};
  }

  private static XYChart chart(String title, String x, String y) {
    System.setProperty("java.awt.headless", "true");
    XYChart chart = new XYChartBuilder().width(800).height(600).title(title).xAxisTitle(x)
        .yAxisTitle(y).build();
    chart.getStyler().setMarkerSize(0);
    return chart;
  }

  private static void line(XYChart chart, String name, double[] x, double[] y) {
    XYSeries s = chart.addSeries(name, x, y);
    s.setMarker(SeriesMarkers.NONE);
  }

  private static void save(XYChart chart, Path png) throws IOException {
    Path parent = png.toAbsolutePath().getParent();
    if (parent != null) {
      java.nio.file.Files.createDirectories(parent);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
