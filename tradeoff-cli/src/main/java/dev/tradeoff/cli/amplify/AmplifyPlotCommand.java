package dev.tradeoff.cli.amplify;

import dev.tradeoff.cli.io.Inputs;
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
    AmplifyBernoulliCommand.checkSetting(alpha, c);
    Inputs.range("--max-epsilon", maxEpsilon, 0.05, 50, "the largest epsilon plotted, in steps of 0.5");
    for (int d : dimensions) {
      Inputs.count("--dimension", d, 1, AmplifyBernoulliCommand.MAX_DIMENSION);
    }
    for (int k : samples) {
      Inputs.count("--samples", k, 1, AmplifyBernoulliCommand.MAX_DIMENSION);
    }
    Inputs.count("--dimension and --samples (curves)", dimensions.length * samples.length, 1, 16);
    Inputs.outputFile("--out", out);
    var rows =
        BernoulliFigures.chart(
            "Bernoulli sampling", alpha, c, dimensions, samples,
            BernoulliFigures.epsilonGrid(maxEpsilon), out);
    spec.commandLine().getOut().printf("wrote %s (%d points)%n", out, rows.size());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
