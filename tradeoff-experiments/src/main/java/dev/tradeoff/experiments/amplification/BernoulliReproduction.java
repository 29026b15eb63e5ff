package dev.tradeoff.experiments.amplification;

import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Figures 1 and 2 (k = 1; d ∈ {1,2,3} and {5,15}; c ∈ {0.01, 0.1, 0.3}; α ∈ {50, 5}) and Figure 3
 * (c = 0.1, α = 50, k ∈ {1,2,4}, d ∈ {1,3,5}) of Imola and Chaudhuri, "Privacy Amplification by
 * Bernoulli Sampling", as PNGs over ε ∈ (0, 30] without truncation, plus {@code bernoulli.csv}.
 *
 * <p>Post depends on (d, k) only through dk (the certificate, the lower bound and the asymptote
 * do), so every distinct (α, c, dk, ε) is computed once, all of them in parallel, hardest (largest
 * dk) first, before the charts are drawn.
 */
public final class BernoulliReproduction {

  /** Told after every computed point. */
  @FunctionalInterface
  public interface Progress {
    /**
     * @param done points computed so far
     * @param total points to compute
     * @param certified searched points certified so far
     */
    void update(int done, int total, int certified);
  }

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

  /** One chart of the reproduction. */
  private record Chart(String figure, double alpha, double c, int[] dims, int[] samples, Path png) {}

  /** What a point's interval depends on (and whether it is searched). */
  private record Key(double alpha, double c, int dk, double epsilon, boolean searched) {}

  private BernoulliReproduction() {}

  /** {@link #write(Path, Progress)} without progress reports. */
  public static Written write(Path out) throws IOException {
    return write(out, (done, total, certified) -> {});
  }

  /** Computes every figure and writes the PNGs and the CSV into {@code out}. */
  public static Written write(Path out, Progress progress) throws IOException {
    Files.createDirectories(out);
    double[] grid = BernoulliFigures.epsilonGrid(30);
    List<Chart> charts = charts(out);
    Map<Key, BernoulliSampling> points = new LinkedHashMap<>();
    for (Chart chart : charts) {
      for (int d : chart.dims()) {
        for (int k : chart.samples()) {
          for (double e : grid) {
            points.putIfAbsent(
                key(chart.alpha(), chart.c(), d, k, e),
                new BernoulliSampling(chart.alpha(), chart.c(), d, k));
          }
        }
      }
    }
    List<Key> order = new ArrayList<>(points.keySet());
    order.sort(Comparator.comparingInt(Key::dk).reversed());
    Map<Key, Amplification> values = new ConcurrentHashMap<>();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger certified = new AtomicInteger();
    order.parallelStream()
        .forEach(
            key -> {
              Amplification a = BernoulliFigures.compute(points.get(key), key.epsilon());
              values.put(key, a);
              int c = key.searched() && a.certified() ? certified.incrementAndGet() : certified.get();
              int n = done.incrementAndGet();
              synchronized (progress) {
                progress.update(n, order.size(), c);
              }
            });
    List<BernoulliFigures.Row> rows = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    for (Chart chart : charts) {
      rows.addAll(
          BernoulliFigures.chart(
              chart.figure(), chart.alpha(), chart.c(), chart.dims(), chart.samples(), grid,
              chart.png(),
              (s, e) -> values.get(key(s.alpha(), s.c(), s.dimension(), s.samples(), e))));
      written.add(chart.png());
    }
    Path csv = out.resolve("bernoulli.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println(BernoulliFigures.CSV_HEADER);
      rows.forEach(r -> w.println(r.csv()));
    }
    return new Written(List.copyOf(written), csv, List.copyOf(rows));
  }

  private static Key key(double alpha, double c, int d, int k, double epsilon) {
    return new Key(alpha, c, d * k, epsilon, BernoulliFigures.searched(d, k, epsilon));
  }

  private static List<Chart> charts(Path out) {
    List<Chart> charts = new ArrayList<>();
    for (double[] f : new double[][] {{50, 1}, {5, 2}}) {
      double alpha = f[0];
      int number = (int) f[1];
      for (double c : new double[] {0.01, 0.1, 0.3}) {
        charts.add(
            new Chart(
                "Figure " + number + "a", alpha, c, new int[] {1, 2, 3}, new int[] {1},
                out.resolve(String.format("figure%da_alpha%d_c%s.png", number, (int) alpha, c))));
        charts.add(
            new Chart(
                "Figure " + number + "b", alpha, c, new int[] {5, 15}, new int[] {1},
                out.resolve(String.format("figure%db_alpha%d_c%s.png", number, (int) alpha, c))));
      }
    }
    for (int d : new int[] {1, 3, 5}) {
      charts.add(
          new Chart(
              "Figure 3 (d=" + d + ")", 50, 0.1, new int[] {d}, new int[] {1, 2, 4},
              out.resolve("figure3_alpha50_c0.1_d" + d + ".png")));
    }
    return charts;
  }
}
