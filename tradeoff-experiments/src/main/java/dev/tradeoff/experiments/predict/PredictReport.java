package dev.tradeoff.experiments.predict;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Accuracy;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Aggregator;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Privacy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The HTML report of a {@link KnowledgeTransfer} run: the accuracy and privacy tables (DaRRM paper
 * Tables 1 and 2) and three charts (accuracy against Q, the noise functions γ_Sub and γ_opt, the
 * privacy spent against Q), drawn headless with XChart.
 */
public final class PredictReport {

  private PredictReport() {}

  /** The accuracy of aggregator {@code a} over {@code q} queries in {@code r}. */
  public static Accuracy accuracy(KnowledgeTransfer.Result r, int q, Aggregator a) {
    return r.accuracy().stream().filter(x -> x.queries() == q && x.aggregator() == a)
        .findFirst().orElseThrow();
  }

  /** "(ε, δ)" with ε rounded up to four significant digits. */
  public static String pair(ApproxDp g) {
    return "(" + fmt(Math.nextUp(g.epsilon())) + ", " + fmt(g.delta()) + ")";
  }

  /** Writes {@code report.html}, {@code accuracy.png}, {@code gamma.png}, {@code privacy.png}. */
  public static void write(Path dir, KnowledgeTransfer.Result r,
      KnowledgeTransfer.Config c) {
    System.setProperty("java.awt.headless", "true");
    try {
      Files.createDirectories(dir);
      double[] qs = c.queries().stream().mapToDouble(Integer::doubleValue).toArray();
      XYChart acc = new XYChartBuilder().width(800).height(500)
          .title("Accuracy of the released labels").xAxisTitle("Q").yAxisTitle("accuracy").build();
      for (Aggregator a : Aggregator.values()) {
        double[] mean = new double[qs.length];
        double[] std = new double[qs.length];
        for (int i = 0; i < qs.length; i++) {
          Accuracy x = accuracy(r, c.queries().get(i), a);
          mean[i] = x.mean();
          std[i] = x.std();
        }
        acc.addSeries(a.label(), qs, mean, std);
      }
      BitmapEncoder.saveBitmap(acc, dir.resolve("accuracy.png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
      XYChart gamma = new XYChartBuilder().width(800).height(500)
          .title("Noise functions gamma (K = " + c.teachers() + ", m = " + fmt(c.allowance())
              + ")").xAxisTitle("l (votes for 1)").yAxisTitle("gamma(l)").build();
      double[] ls = new double[r.gammaSub().length];
      for (int l = 0; l < ls.length; l++) {
        ls[l] = l;
      }
      gamma.addSeries("gamma_Sub", ls, r.gammaSub());
      gamma.addSeries("gamma_opt", ls, r.gammaOpt());
      BitmapEncoder.saveBitmap(gamma, dir.resolve("gamma.png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
      XYChart priv = new XYChartBuilder().width(800).height(500)
          .title("Privacy spent over Q queries").xAxisTitle("Q").yAxisTitle("total epsilon")
          .build();
      priv.addSeries("general composition (d'=1e-4)", qs, r.privacy().stream()
          .mapToDouble(p -> p.totalGeneral().epsilon()).toArray());
      priv.addSeries("tightest accountant", qs, r.privacy().stream()
          .mapToDouble(p -> p.totalAccountant().epsilon()).toArray());
      BitmapEncoder.saveBitmap(priv, dir.resolve("privacy.png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
      StringBuilder rows = new StringBuilder();
      for (int q : c.queries()) {
        rows.append("<tr><td>").append(q).append("</td>");
        for (Aggregator a : Aggregator.values()) {
          Accuracy x = accuracy(r, q, a);
          rows.append(String.format(Locale.ROOT, "<td>%.3f (%.3f)</td>", x.mean(), x.std()));
        }
        rows.append("</tr>\n");
      }
      StringBuilder prows = new StringBuilder();
      for (Privacy p : r.privacy()) {
        prows.append("<tr><td>").append(p.queries()).append("</td><td>").append(pair(p.perQuery()))
            .append("</td><td>").append(pair(p.totalGeneral())).append("</td><td>")
            .append(pair(p.totalAccountant())).append(" [").append(p.accountant())
            .append("]</td></tr>\n");
      }
      String html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tradeoff predict"
          + "</title></head><body>\n<h1>Private prediction from private teachers</h1>\n"
          + String.format(Locale.ROOT, "<p>%d training and %d test examples; K = %d teachers, "
              + "m = %s; each DP-SGD teacher (&epsilon;, &Delta;) = (%s, %s); each label "
              + "(&epsilon;, &delta;) = (%s, %s); GNMax &sigma; = %s on non-private teachers.</p>\n",
              r.trainSize(), r.testSize(), c.teachers(), fmt(c.allowance()),
              fmt(r.teacher().epsilon()), fmt(r.teacher().delta()),
              fmt(r.setting().target().epsilon()), fmt(r.setting().target().delta()),
              fmt(r.gnmaxSigma()))
          + "<h2>Accuracy (mean (std) over " + c.repeats() + " draws)</h2>\n<table border=\"1\">"
          + "<tr><th>Q</th><th>GNMax</th><th>DaRRM &gamma;_Sub</th><th>DaRRM &gamma;_opt</th>"
          + "</tr>\n" + rows + "</table>\n<img src=\"accuracy.png\" alt=\"accuracy vs Q\">\n"
          + "<h2>Noise functions</h2>\n<img src=\"gamma.png\" alt=\"gamma\">\n"
          + "<h2>Privacy</h2>\n<table border=\"1\"><tr><th>Q</th><th>per query</th>"
          + "<th>total, general composition</th><th>total, tightest accountant</th></tr>\n"
          + prows + "</table>\n<img src=\"privacy.png\" alt=\"privacy vs Q\">\n</body></html>\n";
      Files.writeString(dir.resolve("report.html"), html);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write the report to " + dir + ": "
          + e.getMessage());
    }
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
