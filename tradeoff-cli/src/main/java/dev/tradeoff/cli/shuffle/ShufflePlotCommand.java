package dev.tradeoff.cli.shuffle;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.experiments.shuffle.ShuffleFigures;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tradeoff shuffle plot}: type I vs type II error curves, Figure 1 (a) style, as a PNG. */
@Command(
    name = "plot",
    mixinStandardHelpOptions = true,
    description = "Plot the paper's, Cheu et al.'s and the exact trade-off curves (PNG).")
public final class ShufflePlotCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--users", required = true, description = "number of users n >= 2")
  int users;

  @Option(names = "--lambda", required = true, description = "expected number of fair coins, in (0, n)")
  double lambda;

  @Option(names = "--bits", defaultValue = "1", description = "bits r per user (1: binary sum)")
  int bits;

  @Option(names = "--out", required = true, description = "PNG file to write")
  Path out;

  @Override
  public Integer call() throws Exception {
    ShuffleParameters parameters = ShuffleAnalyzeCommand.parameters(users, lambda, bits);
    Inputs.outputFile("--out", out);
    ShuffleReport report = ShuffleReport.of(parameters, bits, 1e-6);
    ShuffleFigures.tradeoffChart(report, String.format(Locale.ROOT,
        "Shuffled sum: n = %d, lambda = %s, r = %d", users, lambda, bits), out);
    spec.commandLine().getOut().printf("wrote %s%n", out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
