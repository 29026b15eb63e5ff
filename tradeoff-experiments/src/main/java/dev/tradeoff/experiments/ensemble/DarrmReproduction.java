package dev.tradeoff.experiments.ensemble;

import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * [DaRRM24, Figures 2, 7 and 8], as
 * PNGs: K = 11, ε = 0.1, Δ = 1e-5, δ = 1 − (1 − Δ)^m, m ∈ {1, 3, 5, 7} (Figure 2); the pure case K
 * = 11, m ∈ {1, 3, 5, 7, 9, 11} (Figure 7); the pure case K = 101, m ∈ {10, 20, 30, 40, 60, 80}
 * (Figure 8).
 */
public final class DarrmReproduction {

  private record Figure(String file, int k, double delta, double[] ms) {}

  private static final List<Figure> FIGURES = List.of(
      new Figure("figure2.png", 11, 1e-5, new double[] {1, 3, 5, 7}),
      new Figure("figure7.png", 11, 0, new double[] {1, 3, 5, 7, 9, 11}),
      new Figure("figure8.png", 101, 0, new double[] {10, 20, 30, 40, 60, 80}));

  private DarrmReproduction() {}

  /** Computes and writes the three figures into {@code out}, telling {@code written} each file. */
  public static void write(Path out, Consumer<Path> written) {
    for (Figure f : FIGURES) {
      List<DarrmFigure.Panel> panels = DarrmFigure.compute(f.k(), f.ms(),
          m -> DarrmSetting.withDefaultDelta(f.k(), 0.1, f.delta(), m));
      Path file = out.resolve(f.file());
      DarrmFigure.write(String.format("DaRRM %s: K = %d, eps = 0.1, Delta = %s", f.file(), f.k(),
          f.delta()), panels, file);
      written.accept(file);
    }
  }
}
