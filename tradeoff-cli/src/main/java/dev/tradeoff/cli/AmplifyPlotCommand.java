package dev.tradeoff.cli;

import dev.tradeoff.experiments.amplification.BernoulliFigures;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tradeoff amplify plot}: Post, lower bound, asymptote and ε against ε, as a PNG. */
@Command(
    name = "plot",
    mixinStandardHelpOptions = true,
    description = "Plot Bernoulli-sampling amplification curves against epsilon (PNG).")
public final class AmplifyPlotCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--alpha", required = true, description = "Rényi order alpha > 1")
  double alpha;

  @Option(names = "--c", required = true, description = "range margin c in [0, 0.5)")
  double c;

  @Option(names = "--dimension", split = ",", defaultValue = "1", description = "dimensions d")
  int[] dimensions;

  @Option(names = "--samples", split = ",", defaultValue = "1", description = "sample counts k")
  int[] samples;

  @Option(names = "--max-epsilon", defaultValue = "30", description = "largest epsilon plotted")
  double maxEpsilon;

  @Option(names = "--out", required = true, description = "PNG file to write")
  Path out;

  @Override
  public Integer call() throws Exception {
    dev.tradeoff.accounting.Require.positive("max-epsilon", maxEpsilon);
    var rows =
        BernoulliFigures.chart(
            "Bernoulli sampling", alpha, c, dimensions, samples,
            BernoulliFigures.epsilonGrid(maxEpsilon), out);
    spec.commandLine().getOut().printf("wrote %s (%d points)%n", out, rows.size());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
