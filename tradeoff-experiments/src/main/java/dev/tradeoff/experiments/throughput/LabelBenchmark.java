package dev.tradeoff.experiments.throughput;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * End-to-end benchmark of {@code tradeoff label} ({@link LabelJob}): generated CSV data (two
 * Gaussian classes in 8 dimensions, 11 000 training rows), Q queries, K = 1 teacher for
 * dp-majority and 11 for the others, on the
 * DirectRunner or a Flink session cluster. Prints the wall time of the plan (input checks and
 * privacy derivation) and of the pipeline, and the peak live heap: the largest heap in use right
 * after a garbage collection (what the job holds, not garbage waiting to be collected), next to the
 * largest used heap a sampler saw every 20 ms. Run one size per JVM with the same {@code -Xmx} to
 * compare sizes. Not a unit test: the figures depend on the machine.
 *
 * <p>Usage: {@code LabelBenchmark QUERIES [dp-majority|gnmax|darrm-sub|darrm-opt] [EPSILON]
 * [MASTER]}, with
 * MASTER the HOST:PORT of a Flink session cluster ({@code ./tradeoff cluster up}); without it,
 * the DirectRunner. One command builds the class path and runs it in a JVM of its own with
 * {@code -Xmx1g}, on the DirectRunner or on a cluster it starts and stops:
 *
 * <pre>
 * tradeoff-experiments/label-benchmark 100000            # DirectRunner, 10^5 queries
 * tradeoff-experiments/label-benchmark 1000000           # DirectRunner, 10^6 queries
 * tradeoff-experiments/label-benchmark 1000000 cluster   # the local Flink cluster, 10^6 queries
 * </pre>
 *
 * <p>{@code LabelBenchmark compare [seeded|secure] [QUERIES...]} instead measures the job beside
 * a plain-Java loop doing the same work, each in a fresh JVM ({@link LabelFloor}):
 * {@code tradeoff-experiments/label-benchmark compare}.
 */
public final class LabelBenchmark {

  private LabelBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && List.of("compare", "job", "plain").contains(args[0])) {
      LabelFloor.main(args);
      return;
    }
    long queries = Long.parseLong(args[0]);
    Aggregator aggregator = Aggregator.parse(args.length > 1 ? args[1] : "dp-majority");
    double epsilon = args.length > 2 ? Double.parseDouble(args[2]) : 4;
    String master = args.length > 3 ? args[3] : null;
    Path dir = Files.createTempDirectory("label-bench");
    write(dir.resolve("train.csv"), 11_000, true, 1);
    write(dir.resolve("queries.csv"), queries, false, 2);
    long[] sampled = {0};
    Thread sampler = new Thread(() -> {
      var memory = ManagementFactory.getMemoryMXBean();
      while (!Thread.currentThread().isInterrupted()) {
        sampled[0] = Math.max(sampled[0], memory.getHeapMemoryUsage().getUsed());
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.setDaemon(true);
    long[] live = LabelFloor.peakLiveHeap();
    sampler.start();
    long t0 = System.nanoTime();
    int teachers = aggregator == Aggregator.DP_MAJORITY ? 1 : 11;
    LabelJob.Request request = new LabelJob.Request(dir.resolve("train.csv").toString(),
        dir.resolve("queries.csv").toString(), dir.resolve("out"),
        new LabelPrivacy.Target(new ApproxDp(epsilon, 1e-5), aggregator, teachers,
        OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(List.of("ham",
        "spam")), CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(1),
        false);
    LabelJob.Plan plan = LabelJob.plan(request);
    long t1 = System.nanoTime();
    int parallelism = Runtime.getRuntime().availableProcessors();
    var options = master == null ? BeamRunner.DIRECT.options(parallelism)
        : BeamRunner.FLINK.remoteOptions(master, parallelism, List.of(Path.of(LabelJob.class
            .getProtectionDomain().getCodeSource().getLocation().toURI()).toString()));
    var manifest = LabelJob.run(plan, new LabelJob.RunInfo(options, master == null ? "direct"
        : "flink", master, List.of("LabelBenchmark")), null);
    long t2 = System.nanoTime();
    sampler.interrupt();
    long peakLive;
    synchronized (live) {
      peakLive = live[0];
    }
    System.out.printf(Locale.ROOT, "queries=%d teachers=%d aggregator=%s runner=%s plan_s=%.1f "
        + "pipeline_s=%.1f total_s=%.1f peak_live_heap_after_gc_mb=%.0f peak_heap_sampled_mb=%.0f "
        + "max_heap_mb=%.0f labelled=%s epsilon=%s%n", queries, teachers, aggregator.cliName(),
        master == null ? "direct" : "flink@" + master, (t1 - t0) / 1e9, (t2 - t1) / 1e9,
        (t2 - t0) / 1e9, peakLive / 1048576.0, sampled[0] / 1048576.0,
        Runtime.getRuntime().maxMemory() / 1048576.0,
        manifest.counts().labelled(), manifest.guarantee().epsilon());
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  static void write(Path file, long rows, boolean train, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      w.write(train ? "label" : "id");
      for (int j = 0; j < 8; j++) {
        w.write(",x" + j);
      }
      w.newLine();
      StringBuilder line = new StringBuilder();
      for (long i = 0; i < rows; i++) {
        boolean positive = r.nextBoolean();
        line.setLength(0);
        line.append(train ? (positive ? "spam" : "ham") : "q" + i);
        for (int j = 0; j < 8; j++) {
          double mean = j < 2 ? (positive ? 1.5 : -1.5) : 0;
          line.append(',').append(String.format(Locale.ROOT, "%.4f", mean + r.nextGaussian()));
        }
        w.write(line.toString());
        w.newLine();
      }
    }
  }
}
