package dev.tradeoff.experiments.amplification;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Figures 1 and 2 (k = 1; d ∈ {1,2,3} and {5,15}; c ∈ {0.01, 0.1, 0.3}; α ∈ {50, 5}) and Figure 3
 * (c = 0.1, α = 50, k ∈ {1,2,4}, d ∈ {1,3,5}) of Imola and Chaudhuri, "Privacy Amplification by
 * Bernoulli Sampling", as PNGs over ε ∈ (0, 30] without truncation, plus {@code bernoulli.csv}.
 */
public final class BernoulliReproduction {

  /**
   * What one reproduction wrote.
   *
   * @param figures the PNGs written
   * @param csv the CSV of every computed point
   * @param rows the computed points
   */
  public record Written(List<Path> figures, Path csv, List<BernoulliFigures.Row> rows) {

    /** Points at which Post was searched. */
    public long searched() {
      return searchedRows().count();
    }

    /** Searched points whose value is certified. */
    public long certified() {
      return searchedRows().filter(r -> r.value().certified()).count();
    }

    private Stream<BernoulliFigures.Row> searchedRows() {
      return rows.stream().filter(r -> BernoulliFigures.searched(r.d(), r.k(), r.epsilon()));
    }
  }

  private BernoulliReproduction() {}

  /** Computes every figure and writes the PNGs and the CSV into {@code out}. */
  public static Written write(Path out) throws IOException {
    Files.createDirectories(out);
    double[] grid = BernoulliFigures.epsilonGrid(30);
    List<BernoulliFigures.Row> rows = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    double[][] figures = {{50, 1}, {5, 2}};
    for (double[] f : figures) {
      double alpha = f[0];
      int number = (int) f[1];
      for (double c : new double[] {0.01, 0.1, 0.3}) {
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
    return new Written(List.copyOf(written), csv, List.copyOf(rows));
  }
}
