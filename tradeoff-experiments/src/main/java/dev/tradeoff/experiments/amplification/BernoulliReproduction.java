package dev.tradeoff.experiments.amplification;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Figures 1 and 2 (k = 1; d ∈ {1,2,3} and {5,15}; c ∈ {0.01, 0.1, 0.3}; α ∈ {50, 5}) and Figure 3
 * (c = 0.1, α = 50, k ∈ {1,2,4}, d ∈ {1,3,5}) of [BernAmp21], as PNGs over ε ∈ (0, 30] without
 * truncation, plus {@code bernoulli.csv}.
 *
 * <p>Post depends on (d, k) only through dk (the certificate, the lower bound and the asymptote
 * do), so every distinct (α, c, dk, ε) is computed once, on a pool of workers that take the most
 * expensive remaining point first, before the charts are drawn.
 */
public final class BernoulliReproduction {

  /** Told when a point starts and when it is finished. */
  @FunctionalInterface
  public interface Progress {
    /**
     * @param state the counts so far and the longest-running point
     */
    void update(State state);
  }

  /**
   * Where a run stands. Every count is of distinct points (α, c, dk, ε), the unit computed once.
   *
   * @param done points finished
   * @param total points to compute
   * @param searched finished points at which Post was searched
   * @param certified finished searched points whose value is certified
   * @param running the point that has been running longest, as "α=…, c=…, dk=…, ε=…"; empty when
   *     none runs
   * @param runningSince {@link System#nanoTime()} when {@code running} started
   */
  public record State(
      int done, int total, int searched, int certified, String running, long runningSince) {

    /** "points done x/y, searched s, certified c of s". */
    public String counts() {
      return "points done " + done + "/" + total + ", searched " + searched + ", certified "
          + certified + " of " + searched;
    }
  }

  /**
   * What one reproduction wrote.
   *
   * @param figures the PNGs written
   * @param csv the CSV of every computed point
   * @param rows the rows of the charts and the CSV (a distinct point shared by several charts is
   *     one row in each)
   * @param points the distinct points computed, as counted by {@link Progress}
   * @param searchedPoints distinct points at which Post was searched
   * @param certifiedPoints distinct searched points whose value is certified
   */
  public record Written(
      List<Path> figures,
      Path csv,
      List<BernoulliFigures.Row> rows,
      int points,
      int searchedPoints,
      int certifiedPoints) {

    /** Rows at which Post was searched. */
    public long searched() {
      return searchedRows().count();
    }

    /** Searched rows whose value is certified. */
    public long certified() {
      return searchedRows().filter(r -> r.value().certified()).count();
    }

    private Stream<BernoulliFigures.Row> searchedRows() {
      return rows.stream().filter(r -> BernoulliFigures.searched(r.d(), r.k(), r.epsilon()));
    }
  }

  /** One chart of the reproduction. */
  record Chart(String figure, double alpha, double c, int[] dims, int[] samples, Path png) {}

  /** What a point's interval depends on (and whether it is searched). */
  private record Key(double alpha, double c, int dk, double epsilon, boolean searched) {

    /**
     * A cost proxy, largest first: searched points cost up to 10^5 times more than the cheap
     * interval, and among them the cost grows with dk (the slowest points have dk = 12–20).
     */
    long cost() {
      return searched ? 1 + dk : 0;
    }

    @Override
    public String toString() {
      return "alpha=" + alpha + ", c=" + c + ", dk=" + dk + ", epsilon=" + epsilon;
    }
  }

  private BernoulliReproduction() {}

  /** {@link #write(Path, int, Progress)} on every available processor, without progress reports. */
  public static Written write(Path out) throws IOException {
    return write(out, Runtime.getRuntime().availableProcessors(), state -> {});
  }

  /**
   * Computes every figure on {@code threads} threads and writes the PNGs and the CSV into {@code
   * out}. The files do not depend on the number of threads: each point is computed alone, and
   * the rows are written in chart order.
   *
   * @param out the output directory
   * @param threads how many points are computed at once, at least 1
   * @param progress told when a point starts and when it is finished
   * @return what was written
   * @throws IOException if a file cannot be written
   */
  public static Written write(Path out, int threads, Progress progress) throws IOException {
    return write(out, charts(out), BernoulliFigures.epsilonGrid(30), threads, progress);
  }

  /** {@link #write(Path, int, Progress)} for the given charts and ε grid. */
  static Written write(Path out, List<Chart> charts, double[] grid, int threads, Progress progress)
      throws IOException {
    Require.positive("threads", threads);
    Files.createDirectories(out);
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
    Map<Key, Amplification> values = computeAll(points, threads, progress);
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
    int searched = (int) values.keySet().stream().filter(Key::searched).count();
    int certified =
        (int) values.entrySet().stream()
            .filter(e -> e.getKey().searched() && e.getValue().certified())
            .count();
    return new Written(
        List.copyOf(written), csv, List.copyOf(rows), values.size(), searched, certified);
  }

  /**
   * Computes every point on {@code threads} workers that take the next point from one queue,
   * most expensive first (by {@link Key#cost()}), so that the slow points start early and the
   * cheap ones fill the gaps: no worker holds a fixed share of the work.
   */
  private static Map<Key, Amplification> computeAll(
      Map<Key, BernoulliSampling> points, int threads, Progress progress) {
    List<Key> order = new ArrayList<>(points.keySet());
    order.sort(Comparator.comparingLong(Key::cost).reversed());
    Map<Key, Amplification> values = new ConcurrentHashMap<>();
    Tally tally = new Tally(order.size(), progress);
    AtomicInteger next = new AtomicInteger();
    Callable<Void> worker =
        () -> {
          for (int i = next.getAndIncrement(); i < order.size(); i = next.getAndIncrement()) {
            Key key = order.get(i);
            tally.started(key);
            Amplification a = BernoulliFigures.compute(points.get(key), key.epsilon());
            values.put(key, a);
            tally.finished(key, a);
          }
          return null;
        };
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "bernoulli-point");
      t.setDaemon(true);
      return t;
    });
    try {
      for (Future<Void> f : pool.invokeAll(Collections.nCopies(threads, worker))) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while computing the Bernoulli points", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return values;
  }

  /** The counts behind {@link State}, updated by the workers. */
  private static final class Tally {
    private final int total;
    private final Progress progress;
    private final Map<Key, Long> running = new LinkedHashMap<>();
    private int done;
    private int searched;
    private int certified;

    Tally(int total, Progress progress) {
      this.total = total;
      this.progress = progress;
    }

    synchronized void started(Key key) {
      running.put(key, System.nanoTime());
      report();
    }

    synchronized void finished(Key key, Amplification a) {
      running.remove(key);
      done++;
      if (key.searched()) {
        searched++;
        if (a.certified()) {
          certified++;
        }
      }
      report();
    }

    private void report() {
      Map.Entry<Key, Long> oldest =
          running.entrySet().stream().min(Map.Entry.comparingByValue()).orElse(null);
      progress.update(
          new State(
              done, total, searched, certified,
              oldest == null ? "" : oldest.getKey().toString(),
              oldest == null ? 0 : oldest.getValue()));
    }
  }

  private static Key key(double alpha, double c, int d, int k, double epsilon) {
    return new Key(alpha, c, d * k, epsilon, BernoulliFigures.searched(d, k, epsilon));
  }

  /** The charts of Figures 1–3, written into {@code out}. */
  static List<Chart> charts(Path out) {
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
