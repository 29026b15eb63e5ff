package dev.tradeoff.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce darrm}: Figures 2, 7 and 8 of the DaRRM paper (Zhang, Jagielski et
 * al., TMLR 2024) as PNGs: K = 11, ε = 0.1, Δ = 1e-5, δ = 1 − (1 − Δ)^m, m ∈ {1, 3, 5, 7}
 * (Figure 2); the pure case K = 11, m ∈ {1, 3, 5, 7, 9, 11} (Figure 7); the pure case K = 101, m ∈
 * {10, 20, 30, 40, 60, 80} (Figure 8).
 */
@Command(name = "darrm", mixinStandardHelpOptions = true,
    description = "Reproduce DaRRM Figures 2, 7 and 8 as PNGs.")
public final class ReproduceDarrmCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "darrm-figures", description = "Output directory.")
  Path out;

  @Override
  public void run() {
    Inputs.outputDirectory("--out", out);
    record Figure(String file, int k, double delta, double[] ms) {}
    List<Figure> figures = List.of(
        new Figure("figure2.png", 11, 1e-5, new double[] {1, 3, 5, 7}),
        new Figure("figure7.png", 11, 0, new double[] {1, 3, 5, 7, 9, 11}),
        new Figure("figure8.png", 101, 0, new double[] {10, 20, 30, 40, 60, 80}));
    for (Figure f : figures) {
      List<DarrmFigure.Panel> panels = DarrmFigure.compute(f.k(), f.ms(),
          m -> EnsembleSetting.build(f.k(), m, 0.1, f.delta(), null));
      Path file = out.resolve(f.file());
      DarrmFigure.write(String.format("DaRRM %s: K = %d, eps = 0.1, Delta = %s", f.file(), f.k(),
          f.delta()), panels, file);
      spec.commandLine().getOut().println(file);
      spec.commandLine().getOut().flush();
    }
  }
}
