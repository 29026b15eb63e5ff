package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.experiments.ensemble.DarrmFigure;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  @Option(names = "--epsilon", required = true, converter = PrivacyParameters.Epsilon.class,
      description = "Per-teacher epsilon > 0.")
  double epsilon;

  @Option(names = "--teacher-delta", defaultValue = "0",
      converter = PrivacyParameters.DeltaOrZero.class, description = "Per-teacher Delta.")
  double teacherDelta;

  @Option(names = "--m", required = true, split = ",", description = "Allowances, e.g. 1,3,5,7.")
  List<Double> allowances;

  @Option(names = "--out", required = true, description = "PNG file.")
  Path out;

  @Override
  public void run() {
    double[] ms = allowances.stream().mapToDouble(Double::doubleValue).toArray();
    Map<Double, DarrmSetting> settings = new HashMap<>();
    for (double m : ms) {
      settings.put(m, setting(m)); // every m built (and checked) before any is computed
    }
    Require.that(out.toString().endsWith(".png"), "--out", "must end in .png", out);
    Inputs.outputFile("--out", out);
    List<DarrmFigure.Panel> panels = DarrmFigure.compute(teachers, ms, settings::get);
    DarrmFigure.write(String.format("DaRRM: K = %d, eps = %s, Delta = %s, delta = 1 - (1 - Delta)^m",
        teachers, epsilon, teacherDelta), panels, out);
    spec.commandLine().getOut().println(out);
    spec.commandLine().getOut().flush();
  }

  private DarrmSetting setting(double m) {
    return EnsembleSetting.build(EnsembleSetting.Names.FLAGS, teachers, m, epsilon, teacherDelta,
        null);
  }
}
