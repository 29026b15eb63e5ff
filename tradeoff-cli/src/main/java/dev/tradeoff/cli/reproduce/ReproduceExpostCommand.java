package dev.tradeoff.cli.reproduce;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.experiments.expost.ExpostReproduction;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce expost [--out DIR] [--repetitions R] [--seed S]}: [ExPost25, Figure 1 and
 * Table 1], computed and written by {@link ExpostReproduction}.
 */
@Command(
    name = "expost",
    mixinStandardHelpOptions = true,
    description = "Figure 1 and Table 1 of 'Private Hyperparameter Tuning with Ex-Post Guarantee'.")
public final class ReproduceExpostCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce-expost", description = "output directory")
  Path out;

  @Option(names = "--repetitions", defaultValue = "20", description = "runs per dataset and method")
  int repetitions;

  @Option(names = "--seed", defaultValue = "2025", description = "seed of data and noise")
  long seed;

  @Option(names = "--datasets", defaultValue = "5", description = "how many of S8000..S128000")
  int datasets;

  @Override
  public Integer call() throws Exception {
    Inputs.count("--repetitions", repetitions, 1, 1_000_000);
    Inputs.count("--datasets", datasets, 1, ExpostReproduction.DATASETS);
    Inputs.outputDirectory("--out", out);
    // about 8 minutes for the defaults on two cores; the datasets double in size, the runs add up
    Progress.of(spec).expect(480.0 * repetitions / 20 * (Math.pow(2, datasets) - 1) / 31,
        "about 8 minutes for 20 repetitions on 5 datasets on two cores, scaled to these");
    Progress.of(spec).phase("Figure 1, then Table 1");
    PrintWriter console = spec.commandLine().getOut();
    ExpostReproduction.Figure1 figure = ExpostReproduction.figure1(out);
    console.printf(Locale.ROOT,
        "Figure 1: mean 10 needs d = %d copies (mean %.3f, std %.2f); wrote %s, %s%n",
        figure.copies(), figure.atMeanTen().mean(), figure.atMeanTen().standardDeviation(),
        figure.png(), figure.csv());
    ExpostReproduction.Table1 table = ExpostReproduction.table1(out, datasets, repetitions, seed);
    console.printf("Table 1 (%d repetitions, seed %d; wrote %s and table1.md)%n", repetitions, seed,
        table.csv());
    console.print(table.markdown());
    console.flush();
    return 0;
  }
}
