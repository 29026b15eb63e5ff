package dev.tradeoff.cli;

import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce shuffle}: Figure 1 (a)–(d) of Chen and Long (n = 100, λ = 58, r = 10)
 * as PNGs, each with the exact worst-case analysis added, and the summary table of both settings.
 */
@Command(
    name = "shuffle",
    mixinStandardHelpOptions = true,
    description = "Regenerate Figure 1 (a)-(d) of the shuffle-model paper, with the exact curve.")
public final class ReproduceShuffleCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce/shuffle", description = "output directory")
  Path out;

  @Override
  public Integer call() throws Exception {
    Inputs.outputDirectory("--out", out);
    ShuffleParameters parameters = new ShuffleParameters(100, 58);
    ShuffleReport binary = ShuffleReport.of(parameters, 1, 1e-6);
    ShuffleReport real = ShuffleReport.of(parameters, 10, 1e-6);
    PrintWriter w = spec.commandLine().getOut();
    ShuffleFigures.tradeoffChart(binary,
        "Figure 1 (a): binary sum, n = 100, lambda = 58", out.resolve("figure1a.png"));
    ShuffleFigures.epsilonDeltaChart(binary,
        "Figure 1 (b): binary sum, (epsilon, delta)", out.resolve("figure1b.png"));
    ShuffleFigures.tradeoffChart(real,
        "Figure 1 (c): real sum, n = 100, lambda = 58, r = 10", out.resolve("figure1c.png"));
    ShuffleFigures.epsilonDeltaChart(real,
        "Figure 1 (d): real sum, r = 10, (epsilon, delta)", out.resolve("figure1d.png"));
    ShuffleAnalyzeCommand.printTable(w, binary);
    ShuffleAnalyzeCommand.printTable(w, real);
    w.printf("wrote figure1a.png .. figure1d.png in %s%n", out);
    w.flush();
    return 0;
  }
}
