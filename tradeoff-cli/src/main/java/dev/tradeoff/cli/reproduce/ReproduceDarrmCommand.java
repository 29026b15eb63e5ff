package dev.tradeoff.cli.reproduce;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.experiments.ensemble.DarrmReproduction;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce darrm}: [DaRRM24, Figures 2, 7 and 8]
 * as PNGs: K = 11, ε = 0.1, Δ = 1e-5, δ = 1 − (1 − Δ)^m, m ∈ {1, 3, 5, 7}
 * (Figure 2); the pure case K = 11, m ∈ {1, 3, 5, 7, 9, 11} (Figure 7); the pure case K = 101, m ∈
 * {10, 20, 30, 40, 60, 80} (Figure 8).
 */
@Command(name = "darrm", mixinStandardHelpOptions = true,
    description = "Reproduce [DaRRM24, Figures 2, 7 and 8] as PNGs.")
public final class ReproduceDarrmCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "darrm-figures", description = "Output directory.")
  Path out;

  @Override
  public void run() {
    Inputs.outputDirectory("--out", out);
    Progress.of(spec).expect(35, "34 s measured on 2 cores at load 15");
    Progress.of(spec).phase("computing and drawing Figures 2, 7 and 8");
    DarrmReproduction.write(out, file -> {
      spec.commandLine().getOut().println(file);
      spec.commandLine().getOut().flush();
    });
  }
}
