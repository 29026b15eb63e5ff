package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.experiments.ensemble.DarrmFigure;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble plot}: γ shapes and errors of γ_opt and the baselines for several m
 * (the layout of [DaRRM24, Figure 2]), as a PNG.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
    description = "Plot gamma_opt and the baselines (shapes and errors) for several m as a PNG.")
public final class EnsemblePlotCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--teachers", required = true, description = "K (odd).")
  int teachers;

  @Option(names = "--epsilon", required = true, description = "Per-teacher epsilon > 0.")
  double epsilon;

  @Option(names = "--teacher-delta", defaultValue = "0", description = "Per-teacher Delta.")
  double teacherDelta;

  @Option(names = "--m", required = true, split = ",", description = "Allowances, e.g. 1,3,5,7.")
  List<Double> allowances;

  @Option(names = "--out", required = true, description = "PNG file.")
  Path out;

  @Override
  public void run() {
    double[] ms = allowances.stream().mapToDouble(Double::doubleValue).toArray();
    for (double m : ms) {
      EnsembleSetting.build(teachers, m, epsilon, teacherDelta, null); // validate all first
    }
    Require.that(out.toString().endsWith(".png"), "--out", "must end in .png", out);
    Inputs.outputFile("--out", out);
    List<DarrmFigure.Panel> panels = DarrmFigure.compute(teachers, ms,
        m -> EnsembleSetting.build(teachers, m, epsilon, teacherDelta, null));
    DarrmFigure.write(String.format("DaRRM: K = %d, eps = %s, Delta = %s, delta = 1 - (1 - Delta)^m",
        teachers, epsilon, teacherDelta), panels, out);
    spec.commandLine().getOut().println(out);
    spec.commandLine().getOut().flush();
  }
}
