package dev.tradeoff.experiments.predict;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Accuracy;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Privacy;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The HTML report of a {@link KnowledgeTransfer} run ([DaRRM24, Section 6.2, Tables 1 and 2]),
 * written for a data scientist who has not read the papers: what is protected (one training
 * record) and under which neighbouring relation, what each aggregator does (GNMax, DaRRM γ_Sub and
 * γ_opt, the allowance m, the teachers' Δ against the labels' δ), the total (ε, δ) of releasing Q
 * labels with δ compared with 1/n (a warning when δ is above it), how the run was made (command
 * line, version, seed), the accuracy and privacy tables, and four charts drawn headless with
 * XChart: accuracy against Q, the noise functions, and the total ε and the total δ against Q. Every
 * privacy number is rounded up.
 */
public final class PredictReport {

  /** How a run was made, printed at the end of the report. */
  public record Provenance(String commandLine, String version) {}

  private static final String[] CHARTS = {
    "accuracy.png", "gamma.png", "privacy-epsilon.png", "privacy-delta.png"
  };

  private PredictReport() {}

  /** The accuracy of aggregator {@code a} over {@code q} queries in {@code r}. */
  public static Accuracy accuracy(KnowledgeTransfer.Result r, int q, Aggregator a) {
    return r.accuracy().stream().filter(x -> x.queries() == q && x.aggregator() == a)
        .findFirst().orElseThrow();
  }

  /** "(ε, δ)", each rounded up to four significant digits. */
  public static String pair(ApproxDp g) {
    return "(" + up(g.epsilon()) + ", " + up(g.delta()) + ")";
  }

  /** The chart files {@link #write} creates next to {@code report.html}. */
  public static List<String> charts() {
    return List.of(CHARTS);
  }

  /** Writes {@code report.html} and the {@link #charts()} into {@code dir}. */
  public static void write(Path dir, KnowledgeTransfer.Result r, KnowledgeTransfer.Config c,
      Provenance provenance) {
    System.setProperty("java.awt.headless", "true");
    try {
      Files.createDirectories(dir);
      drawCharts(dir, r, c);
      Files.writeString(dir.resolve("report.html"), html(r, c, provenance));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write the report to " + dir + ": "
          + e.getMessage());
    }
  }

  private static void drawCharts(Path dir, KnowledgeTransfer.Result r, KnowledgeTransfer.Config c)
      throws IOException {
    double[] qs = c.queries().stream().mapToDouble(Integer::doubleValue).toArray();
    XYChart acc = new XYChartBuilder().width(800).height(450)
        .title("Accuracy of the released labels (mean, bars: std over draws)").xAxisTitle("Q")
        .yAxisTitle("accuracy").build();
    for (Aggregator a : KnowledgeTransfer.TABLE1) {
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

    XYChart gamma = new XYChartBuilder().width(800).height(450)
        .title("DaRRM noise functions: Pr[release the majority] (K = " + c.teachers() + ", m = "
            + plain(c.allowance()) + ")").xAxisTitle("l (teachers voting 1)")
        .yAxisTitle("gamma(l)").build();
    double[] ls = new double[r.gammaSub().length];
    for (int l = 0; l < ls.length; l++) {
      ls[l] = l;
    }
    gamma.addSeries("gamma_Sub (subsampling baseline)", ls, r.gammaSub());
    gamma.addSeries("gamma_opt (optimised)", ls, r.gammaOpt());
    BitmapEncoder.saveBitmap(gamma, dir.resolve("gamma.png").toString(),
        BitmapEncoder.BitmapFormat.PNG);

    XYChart eps = new XYChartBuilder().width(800).height(450)
        .title("Total epsilon of Q labels").xAxisTitle("Q")
        .yAxisTitle("total epsilon").build();
    eps.addSeries("general composition (delta' = " + plain(KnowledgeTransfer.TABLE2_SLACK) + ")", qs,
        r.privacy().stream().mapToDouble(p -> p.totalGeneral().epsilon()).toArray());
    eps.addSeries("accountant: " + accountants(r), qs,
        r.privacy().stream().mapToDouble(p -> p.totalAccountant().epsilon()).toArray());
    BitmapEncoder.saveBitmap(eps, dir.resolve("privacy-epsilon.png").toString(),
        BitmapEncoder.BitmapFormat.PNG);

    XYChart delta = new XYChartBuilder().width(800).height(450)
        .title("Total delta of Q labels, against 1/n (n = " + r.trainSize() + " records)")
        .xAxisTitle("Q").yAxisTitle("total delta (log scale)").build();
    delta.getStyler().setYAxisLogarithmic(true);
    delta.addSeries("total delta (both methods)", qs,
        r.privacy().stream().mapToDouble(p -> p.totalAccountant().delta()).toArray());
    double[] oneOverN = new double[qs.length];
    java.util.Arrays.fill(oneOverN, 1.0 / r.trainSize());
    delta.addSeries("1/n", qs, oneOverN);
    BitmapEncoder.saveBitmap(delta, dir.resolve("privacy-delta.png").toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  private static String html(KnowledgeTransfer.Result r, KnowledgeTransfer.Config c,
      Provenance provenance) {
    int n = r.trainSize();
    ApproxDp teacher = r.teacher();
    ApproxDp label = r.setting().target();
    Privacy largest = r.privacy().get(r.privacy().size() - 1);
    for (Privacy p : r.privacy()) {
      if (p.queries() > largest.queries()) {
        largest = p;
      }
    }
    ApproxDp total = smaller(largest.totalGeneral(), largest.totalAccountant());
    double ratio = total.delta() * n;
    OptionalLong seed = c.seed();

    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<title>tradeoff predict: private labels from private teachers</title>\n")
        .append("<style>body{font-family:sans-serif;max-width:62em;margin:2em auto;padding:0 1em;")
        .append("line-height:1.45}table{border-collapse:collapse;margin:.5em 0}")
        .append("td,th{border:1px solid #999;padding:.25em .6em}td{text-align:right}")
        .append(".warn{background:#fff3cd;border:1px solid #d39e00;padding:.6em}")
        .append(".ok{background:#e8f5e9;border:1px solid #4caf50;padding:.6em}")
        .append(".seeded{background:#fdecea;border:1px solid #c62828;padding:.6em}")
        .append("dt{font-weight:bold;margin-top:.6em}img{max-width:100%}code{background:#f4f4f4}")
        .append("</style>\n<script>\n// a chart that fails to load is reported on the console\n")
        .append("window.addEventListener('error', function (e) {\n")
        .append("  if (e.target && e.target.tagName === 'IMG') {\n")
        .append("    console.error('missing chart: ' + e.target.getAttribute('src'));\n  }\n")
        .append("}, true);\n</script>\n</head><body>\n")
        .append("<h1>Private labels from private teachers</h1>\n");

    if (seed.isPresent()) {
      h.append("<p class=\"seeded\"><b>This run was seeded (seed ").append(seed.getAsLong())
          .append(") for reproducibility: its randomness is predictable, so the guarantees below"
              + " describe the method, not this run. Do not release these labels.</b></p>\n");
    }

    h.append("<h2>Summary</h2>\n<p>")
        .append(String.format(Locale.ROOT, "Up to Q = %d labels of public query points were "
            + "released. Releasing all of them is <b>(&epsilon;, &delta;) = (%s, %s)</b>-"
            + "differentially private with respect to one record of the %d training records. "
            + "Each single label is (%s, %s)-DP.", largest.queries(), up(total.epsilon()),
            up(total.delta()), n, up(label.epsilon()), up(label.delta())))
        .append("</p>\n");
    if (total.delta() > 1.0 / n) {
      h.append("<p class=\"warn\"><b>Warning: &delta; is large.</b> ")
          .append(String.format(Locale.ROOT, "The total &delta; = %s is %s times 1/n = %s "
              + "(n = %d training records). &delta; is the probability with which the guarantee "
              + "may fail outright, for instance by revealing one record entirely; with &delta; "
              + "above 1/n a mechanism could reveal a whole record and still meet the guarantee. "
              + "The usual rule is &delta; much smaller than 1/n. Lower the per-teacher &Delta; "
              + "(<code>--teacher-delta</code>), m or Q.", up(total.delta()), up(ratio),
              plain(1.0 / n), n))
          .append("</p>\n");
    } else {
      h.append("<p class=\"ok\">")
          .append(String.format(Locale.ROOT, "The total &delta; = %s is below 1/n = %s "
              + "(n = %d training records), as it should be.", up(total.delta()), plain(1.0 / n), n))
          .append("</p>\n");
    }

    h.append("<h2>What is protected</h2>\n")
        .append("<p>The unit of privacy is <b>one training record</b> (one labelled example of the "
            + "sensitive training data). Two training sets are <em>neighbours</em> when one is the "
            + "other with <b>one record added or removed</b> (the add/remove relation, the one "
            + "DP-SGD's accountant uses). An (&epsilon;, &delta;)-DP release satisfies, for every "
            + "pair of neighbours D and D&prime; and every set S of outcomes, "
            + "Pr[output &isin; S | D] &le; e<sup>&epsilon;</sup> Pr[output &isin; S | D&prime;] "
            + "+ &delta;: whatever is released, it looks almost the same whether or not any one "
            + "person's record was used. The query points are public; only their labels are "
            + "released.</p>\n");

    h.append("<h2>How the labels are made</h2>\n<dl>\n")
        .append("<dt>Teachers</dt><dd>")
        .append(String.format(Locale.ROOT, "The training records are split into K = %d disjoint "
            + "shards; one classifier (a teacher) is trained on each with DP-SGD, so each teacher "
            + "is (&epsilon;, &Delta;) = (%s, %s)-DP (PLD accountant). A record lies in exactly "
            + "one shard, so it can change only one teacher's vote.", c.teachers(),
            up(teacher.epsilon()), up(teacher.delta())))
        .append("</dd>\n<dt>m, the privacy allowance</dt><dd>")
        .append(String.format(Locale.ROOT, "Each released label may cost m = %s times one "
            + "teacher's &epsilon;: it is (m&epsilon;, &delta;) = (%s, %s)-DP. A larger m buys "
            + "more accurate labels with more privacy.", plain(c.allowance()), up(label.epsilon()),
            up(label.delta())))
        .append("</dd>\n<dt>&Delta; and &delta;</dt><dd>&Delta; is each teacher's own failure "
            + "probability (from DP-SGD); &delta; = 1 &minus; (1 &minus; &Delta;)<sup>m</sup> is "
            + "the failure probability each label is allowed, and the total &delta; adds up over "
            + "the Q labels.</dd>\n")
        .append("<dt>GNMax (baseline)</dt><dd>")
        .append(String.format(Locale.ROOT, "Gaussian NoisyMax (Papernot et al., 2018): adds "
            + "Gaussian noise of standard deviation &sigma; = %s to the vote counts of K "
            + "<em>non-private</em> teachers and releases the label with the most noisy votes; "
            + "&sigma; is calibrated so each label is (m&epsilon;, &delta;)-DP.",
            up(r.gnmaxSigma())))
        .append("</dd>\n<dt>DaRRM</dt><dd>Data-dependent Randomized Response Majority (Jiang, "
            + "Zhang and Joshi, 2024): with l of the K private teachers voting for label 1, it releases the "
            + "teachers' majority with probability &gamma;(l) and a fair coin flip otherwise. "
            + "&gamma; is a <em>noise function</em>, checked by an exact verifier so that every "
            + "label is (m&epsilon;, &delta;)-DP. <b>&gamma;_Sub</b> is the subsampling baseline "
            + "(the majority of m randomly chosen teachers); <b>&gamma;_opt</b> is optimised by "
            + "linear programming to release the majority as often as the privacy allows.</dd>\n")
        .append("</dl>\n");

    h.append("<h2>Total privacy of Q labels</h2>\n")
        .append("<p>Releasing Q labels composes Q per-label guarantees. Two upper bounds are "
            + "shown: the general composition theorem of Kairouz, Oh and Viswanath with "
            + "&delta;&prime; = ").append(plain(KnowledgeTransfer.TABLE2_SLACK))
        .append(" (the paper's Table 2), and the accountant named in brackets at the same "
            + "&delta;; both are valid, and the smaller &epsilon; is the one to report. All values "
            + "are rounded up. The last column is the post-processing bound: the DP-SGD teachers "
            + "are trained once on disjoint partitions, so the K models are together as private "
            + "as one teacher (parallel composition) and every label is post-processing of them; "
            + "that bound does not grow with Q and is the tighter one for this construction "
            + "(the paper's per-label accounting is what its model, mechanisms run afresh for "
            + "every output, needs).</p>\n<table><tr><th>Q</th><th>per label (&epsilon;, "
            + "&delta;)</th><th>total, general composition</th><th>total, accountant</th>"
            + "<th>total &delta; &times; n</th><th>post-processing, any Q</th></tr>\n");
    for (Privacy p : r.privacy()) {
      h.append("<tr><td>").append(p.queries()).append("</td><td>").append(pair(p.perQuery()))
          .append("</td><td>").append(pair(p.totalGeneral())).append("</td><td>")
          .append(pair(p.totalAccountant())).append(" [").append(p.accountant())
          .append("]</td><td>")
          .append(up(smaller(p.totalGeneral(), p.totalAccountant()).delta() * n))
          .append("</td><td>").append(pair(p.postProcessing()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n<img src=\"privacy-epsilon.png\" alt=\"total epsilon against Q\">\n")
        .append("<img src=\"privacy-delta.png\" alt=\"total delta against Q, with 1/n\">\n");

    h.append("<h2>Accuracy</h2>\n<p>")
        .append(String.format(Locale.ROOT, "Accuracy of the released labels on %d test points, "
            + "mean (standard deviation) over %d draws of the Q queries. For reference, the "
            + "majority of K non-private teachers is %.3f accurate.", r.testSize(), c.repeats(),
            r.nonPrivateMajorityAccuracy()))
        .append("</p>\n<table><tr><th>Q</th>");
    for (Aggregator a : KnowledgeTransfer.TABLE1) {
      h.append("<th>").append(a.label()).append("</th>");
    }
    h.append("</tr>\n");
    for (int q : c.queries()) {
      h.append("<tr><td>").append(q).append("</td>");
      for (Aggregator a : KnowledgeTransfer.TABLE1) {
        Accuracy x = accuracy(r, q, a);
        h.append(String.format(Locale.ROOT, "<td>%.3f (%.3f)</td>", x.mean(), x.std()));
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n<img src=\"accuracy.png\" alt=\"accuracy against Q\">\n")
        .append("<h2>Noise functions</h2>\n<p>&gamma;(l): the probability that DaRRM releases "
            + "the majority when l teachers vote 1. 1 everywhere would be the non-private "
            + "majority.</p>\n<img src=\"gamma.png\" alt=\"gamma_Sub and gamma_opt\">\n");

    h.append("<h2>How this report was made</h2>\n<table>")
        .append("<tr><th>command line</th><td style=\"text-align:left\"><code>")
        .append(escape(provenance.commandLine())).append("</code></td></tr>\n")
        .append("<tr><th>tradeoff version</th><td style=\"text-align:left\">")
        .append(escape(provenance.version())).append("</td></tr>\n")
        .append("<tr><th>randomness</th><td style=\"text-align:left\">")
        .append(seed.isPresent() ? "seeded (seed " + seed.getAsLong() + "): reproducible, NOT "
            + "private" : "secure (not reproducible)")
        .append("</td></tr>\n</table>\n<p>Method: S. Jiang, Q. Zhang and G. Joshi, <em>Optimized "
            + "Tradeoffs for Private Prediction with Majority Ensembling</em>, Transactions on "
            + "Machine Learning Research, 2024, Section 6.2, Tables 1 and 2.</p>\n")
        .append("</body></html>\n");
    return h.toString();
  }

  private static String accountants(KnowledgeTransfer.Result r) {
    return String.join(", ", r.privacy().stream().map(Privacy::accountant).distinct().toList());
  }

  /** The guarantee with the smaller ε (both are valid upper bounds at comparable δ). */
  private static ApproxDp smaller(ApproxDp a, ApproxDp b) {
    return a.epsilon() <= b.epsilon() ? a : b;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /**
   * Four significant digits, rounded up (privacy numbers never understated); a double whose
   * shortest form has at most four digits is shown as it is (1e-4, not 0.0001001).
   */
  static String up(double v) {
    if (!Double.isFinite(v) || v == 0) {
      return String.valueOf(v);
    }
    BigDecimal shortest = new BigDecimal(Double.toString(v));
    BigDecimal shown = shortest.precision() <= 4 ? shortest
        : new BigDecimal(v).round(new MathContext(4, RoundingMode.CEILING));
    return shown.stripTrailingZeros().toPlainString();
  }

  /**
   * The double's shortest decimal form, without an exponent or trailing zeros (1/n; m = 3, not
   * 3.000).
   *
   * @param v the number
   * @return its plain decimal form
   */
  public static String plain(double v) {
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }
}
