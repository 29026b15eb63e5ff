package dev.tradeoff.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce bernoulli}: Figures 1 and 2 (k = 1; d ∈ {1,2,3} and {5,15}; c ∈
 * {0.01, 0.1, 0.3}; α ∈ {50, 5}) and Figure 3 (c = 0.1, α = 50, k ∈ {1,2,4}, d ∈ {1,3,5}) of Imola
 * and Chaudhuri, as PNGs over ε ∈ (0, 30] without truncation, plus {@code bernoulli.csv}.
 */
@Command(
    name = "bernoulli",
    mixinStandardHelpOptions = true,
    description = "Figures 1-3 of 'Privacy Amplification by Bernoulli Sampling' and a CSV.")
public final class ReproduceBernoulliCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce-bernoulli", description = "output directory")
  Path out;

  @Override
  public Integer call() throws Exception {
    Inputs.outputDirectory("--out", out);
    Progress progress = Progress.of(spec);
    int charts = 15;
    double[] grid = BernoulliFigures.epsilonGrid(30);
    List<BernoulliFigures.Row> rows = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    double[][] figures = {{50, 1}, {5, 2}};
    for (double[] f : figures) {
      double alpha = f[0];
      int number = (int) f[1];
      for (double c : new double[] {0.01, 0.1, 0.3}) {
        progress.phase("figure " + number + ", c = " + c);
        progress.step(written.size(), charts);
        Path a = out.resolve(String.format("figure%da_alpha%d_c%s.png", number, (int) alpha, c));
        rows.addAll(
            BernoulliFigures.chart(
                "Figure " + number + "a", alpha, c, new int[] {1, 2, 3}, new int[] {1}, grid, a));
        Path b = out.resolve(String.format("figure%db_alpha%d_c%s.png", number, (int) alpha, c));
        rows.addAll(
            BernoulliFigures.chart(
                "Figure " + number + "b", alpha, c, new int[] {5, 15}, new int[] {1}, grid, b));
        written.add(a);
        written.add(b);
      }
    }
    for (int d : new int[] {1, 3, 5}) {
      progress.phase("figure 3, d = " + d);
      progress.step(written.size(), charts);
      Path p = out.resolve("figure3_alpha50_c0.1_d" + d + ".png");
      rows.addAll(
          BernoulliFigures.chart(
              "Figure 3 (d=" + d + ")", 50, 0.1, new int[] {d}, new int[] {1, 2, 4}, grid, p));
      written.add(p);
    }
    Path csv = out.resolve("bernoulli.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println(BernoulliFigures.CSV_HEADER);
      rows.forEach(r -> w.println(r.csv()));
    }
    PrintWriter console = spec.commandLine().getOut();
    List<BernoulliFigures.Row> searchedRows =
        rows.stream().filter(r -> BernoulliFigures.searched(r.d(), r.k(), r.epsilon())).toList();
    long searched = searchedRows.size();
    long certified = searchedRows.stream().filter(r -> r.value().certified()).count();
    console.printf(
        "wrote %d figures and %s (%d rows; Post searched at %d points, %d certified)%n",
        written.size(), csv, rows.size(), searched, certified);
    console.flush();
    return 0;
  }
}
