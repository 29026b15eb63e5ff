package dev.tradeoff.experiments.ensemble;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A DaRRM figure in the layout of Figures 2, 7 and 8 of [DaRRM24]: for
 * each privacy allowance m, the shapes of γ_opt (surrogate objective, p̄ = ¾), γ_Sub, γ_DSub (pure
 * case) and the constant γ of RR, each certified by the exact verifier, and their errors
 * (the exact surrogate error, p_i i.i.d. U[0.5, 1)). Rendered headless with XChart.
 */
public final class DarrmFigure {

  /** One panel: the γs of one m and their errors. */
  public record Panel(double m, Map<String, NoiseFunction> gammas, Map<String, Double> errors) {}

  private DarrmFigure() {}

  public static List<Panel> compute(int teachers, double[] allowances,
      DoubleFunction<DarrmSetting> settings) {
    List<Panel> panels = new ArrayList<>();
    for (double m : allowances) {
      DarrmSetting s = settings.apply(m);
      GammaOptimizer optimizer = new GammaOptimizer(s);
      PrivacyVerifier v = optimizer.verifier();
      Map<String, NoiseFunction> gammas = new LinkedHashMap<>();
      gammas.put("opt", optimizer.optimize(new Objective.Surrogate(0.75)).gamma());
      gammas.put("Sub", Baseline.SUBSAMPLING.certified(v).gamma());
      if (s.teacherDelta() == 0 && s.delta() == 0) {
        gammas.put("DSub", Baseline.DOUBLE_SUBSAMPLING.certified(v).gamma());
      }
      gammas.put("const (RR)", Baseline.RANDOMIZED_RESPONSE.certified(v).gamma());
      Map<String, Double> errors = new LinkedHashMap<>();
      gammas.forEach((name, g) -> errors.put(name, DarrmError.surrogate(g, 0.75)));
      panels.add(new Panel(m, gammas, errors));
    }
    return panels;
  }

  public static void write(String title, List<Panel> panels, Path out) {
    int w = 420;
    int h = 300;
    BufferedImage image = new BufferedImage(w * panels.size(), 2 * h + 40,
        BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    g.setColor(Color.BLACK);
    g.drawString(title, 10, 25);
    for (int i = 0; i < panels.size(); i++) {
      Panel p = panels.get(i);
      String mLabel = p.m() == Math.rint(p.m()) ? String.valueOf((int) p.m())
          : String.format("%.4f", p.m());
      XYChart shape = new XYChartBuilder().width(w).height(h).title("gamma, m = " + mLabel)
          .xAxisTitle("l").yAxisTitle("gamma(l)").build();
      shape.getStyler().setYAxisMin(0.0).setYAxisMax(1.05).setLegendVisible(i == 0);
      for (Map.Entry<String, NoiseFunction> e : p.gammas().entrySet()) {
        double[] v = e.getValue().values();
        double[] x = new double[v.length];
        for (int l = 0; l < v.length; l++) {
          x[l] = l;
        }
        shape.addSeries(e.getKey(), x, v).setMarker(SeriesMarkers.CIRCLE);
      }
      CategoryChart errors = new CategoryChartBuilder().width(w).height(h)
          .title("Error(DaRRM), m = " + mLabel).yAxisTitle("error").build();
      errors.getStyler().setLegendVisible(false);
      errors.addSeries("error", new ArrayList<>(p.errors().keySet()),
          new ArrayList<>(p.errors().values()));
      g.drawImage(BitmapEncoder.getBufferedImage(shape), i * w, 40, null);
      g.drawImage(BitmapEncoder.getBufferedImage(errors), i * w, 40 + h, null);
    }
    g.dispose();
    try {
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null) {
        java.nio.file.Files.createDirectories(parent);
      }
      ImageIO.write(image, "png", out.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + out + ": " + e.getMessage());
    }
  }
}
