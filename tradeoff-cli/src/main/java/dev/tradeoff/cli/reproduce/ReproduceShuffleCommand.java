package dev.tradeoff.cli.reproduce;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.cli.io.ShuffleTable;
import dev.tradeoff.experiments.shuffle.ShuffleReproduction;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce shuffle}: [ShuffleGDP21, Figure 1 (a)–(d)] (n = 100, λ = 58, r = 10)
 * as PNGs, each with the exact worst-case analysis added, and the summary table of both settings.
 */
@Command(
    name = "shuffle",
    mixinStandardHelpOptions = true,
    description = "Regenerate Figure 1 (a)-(d) of [ShuffleGDP21], with the exact curve.")
public final class ReproduceShuffleCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce/shuffle", description = "output directory")
  Path out;

  @Override
  public Integer call() throws Exception {
    Inputs.outputDirectory("--out", out);
    Progress.of(spec).expect(36, "36 s measured on 2 cores at load 16");
    Progress.of(spec).phase("computing the exact and bounded curves of Figure 1");
    ShuffleReproduction.Reports reports = ShuffleReproduction.write(out);
    PrintWriter w = spec.commandLine().getOut();
    ShuffleTable.print(w, reports.binary());
    ShuffleTable.print(w, reports.real());
    w.printf("wrote figure1a.png .. figure1d.png in %s%n", out);
    w.flush();
    return 0;
  }
}
