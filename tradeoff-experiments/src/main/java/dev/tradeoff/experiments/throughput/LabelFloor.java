package dev.tradeoff.experiments.throughput;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.Featurizer;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.label.PartitionTrainer;
import dev.tradeoff.beam.label.Plurality;
import dev.tradeoff.beam.label.TeacherModel;
import dev.tradeoff.beam.label.TeacherPartition;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.learning.data.MulticlassData;
import dev.tradeoff.learning.features.FeatureMap;
import dev.tradeoff.learning.features.PublicStatistics;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The label job's cost beside its floor: one run measures {@code tradeoff label} ({@link LabelJob}
 * on the DirectRunner; dp-majority, K = 1, (4, 1e-5), the data of {@link LabelBenchmark}: 11,000
 * training rows of 8 features) and a plain-Java loop that does the same work with the same code —
 * scan the queries for the feature map's public statistics, read the training CSV, partition it
 * by the same keyed hash, train the same teacher ({@link PartitionTrainer} with the job's σ), vote,
 * take the plurality and write {@code id,label} — at each number of queries, each in a fresh JVM
 * (so each pays its own start-up, class loading and JIT, as a user's run does) with this JVM's
 * heap flags. The loop's σ is the job's, computed once by this JVM; the privacy derivation is part
 * of the job's plan only, and is shown as the plan's CPU.
 *
 * <p>Reported per run: the process CPU time ({@code OperatingSystemMXBean#getProcessCpuTime}, all
 * threads, from JVM start), the wall time from JVM start, the plan's CPU and wall (the job only),
 * and the peak live heap (the largest heap in use right after a collection). The load average of
 * the machine is printed before and after: the figures are only comparable on an idle machine.
 *
 * <p>With the system property {@code tradeoff.launcher} naming the {@code ./tradeoff} script, each
 * size also runs the command itself, {@code tradeoff label} as a user runs it (the shaded jar, the
 * JVM flags and the class-data archive of the launcher; one unmeasured run first, which builds
 * the jar if needed and writes the archive): its CPU is the process's user + system time as
 * bash's {@code time} reports it.
 *
 * <p>Usage: {@code LabelBenchmark compare [seeded|secure] [QUERIES...]} (default {@code seeded
 * 10000 1000000}); {@code secure} runs both unseeded, with the production randomness (a
 * {@link java.security.SecureRandom} per teacher).
 */
public final class LabelFloor {

  private static final double EPSILON = 4;
  private static final double DELTA = 1e-5;
  private static final int TRAIN_ROWS = 11_000;
  private static final List<String> CLASSES = List.of("ham", "spam");

  private LabelFloor() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "compare" -> compare(Arrays.copyOfRange(args, 1, args.length));
      case "job" -> child(args, true);
      case "plain" -> child(args, false);
      default -> throw new IllegalArgumentException("mode must be compare, job or plain");
    }
  }

  private static void compare(String[] args) throws Exception {
    boolean seeded = args.length == 0 || !args[0].equals("secure");
    List<Long> sizes = new ArrayList<>();
    for (String a : args) {
      if (!a.equals("seeded") && !a.equals("secure")) {
        sizes.add(Long.parseLong(a));
      }
    }
    if (sizes.isEmpty()) {
      sizes = List.of(10_000L, 1_000_000L);
    }
    Path dir = Files.createTempDirectory("label-floor");
    try {
      LabelBenchmark.write(dir.resolve("train.csv"), TRAIN_ROWS, true, 1);
      double sigma = ((PartitionTrainer.Softmax) LabelPrivacy.derive(LabelPrivacy.Target.of(
          new ApproxDp(EPSILON, DELTA), Aggregator.DP_MAJORITY), 1).trainer()).dpSgd()
          .noiseMultiplier();
      String launcher = System.getProperty("tradeoff.launcher");
      if (launcher != null) {
        Path queries = dir.resolve("queries-" + sizes.get(0) + ".csv");
        LabelBenchmark.write(queries, sizes.get(0), false, 2);
        command(launcher, dir, sizes.get(0), seeded); // the jar and the archive, unmeasured
      }
      String before = load();
      List<String> rows = new ArrayList<>();
      for (long q : sizes) {
        Path queries = dir.resolve("queries-" + q + ".csv");
        LabelBenchmark.write(queries, q, false, 2);
        if (launcher != null) {
          rows.add(String.format(Locale.ROOT, "| %d | `./tradeoff label` (DirectRunner) | %.2f | "
              + "– | – | – | – | %d |", q, command(launcher, dir, q, seeded), q));
        }
        for (String mode : List.of("job", "plain")) {
          Map<String, String> r = spawn(mode, dir, q, seeded, sigma);
          rows.add(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s |", q,
              mode.equals("job") ? "label job in process (DirectRunner)" : "plain Java loop",
              r.get("cpu_s"), r.get("wall_s"), r.getOrDefault("plan_cpu_s", "–"),
              r.getOrDefault("plan_wall_s", "–"), r.get("peak_live_heap_mb"),
              r.get("labelled")));
        }
        Files.delete(queries);
      }
      System.out.println("label job vs plain loop: dp-majority, K = 1, (" + EPSILON + ", "
          + DELTA + "), " + TRAIN_ROWS + " training rows x 8 features, " + (seeded ? "seeded"
          : "secure (production) randomness") + ", sigma = " + sigma + ", JVM flags "
          + ManagementFactory.getRuntimeMXBean().getInputArguments() + ", "
          + Runtime.getRuntime().availableProcessors() + " processors");
      System.out.println("load average before: " + before + "; after: " + load());
      System.out.println();
      System.out.println("| queries | run | CPU-s | wall-s | plan CPU-s | plan wall-s | "
          + "peak live heap MB | labels |");
      System.out.println("|---|---|---|---|---|---|---|---|");
      rows.forEach(System.out::println);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return String.valueOf(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /**
   * Runs {@code ./tradeoff label} on the benchmark's data and returns its CPU seconds (user +
   * system, from bash's {@code time}).
   */
  private static double command(String launcher, Path dir, long q, boolean seeded)
      throws IOException, InterruptedException {
    Path out = dir.resolve("out-cli-" + q);
    List<String> label = new ArrayList<>(List.of(launcher, "label", "--train",
        dir.resolve("train.csv").toString(), "--queries",
        dir.resolve("queries-" + q + ".csv").toString(), "--out", out.toString(), "--epsilon",
        String.valueOf(EPSILON), "--delta", String.valueOf(DELTA), "--classes",
        String.join(",", CLASSES), "--overwrite"));
    if (seeded) {
      label.addAll(List.of("--seed", "1"));
    }
    // bash's time reports the command's user and system CPU on stderr; its stdout is dropped
    List<String> command = new ArrayList<>(List.of("bash", "-c",
        "TIMEFORMAT='CPU %3U %3S'; time \"$@\" >/dev/null", "bash"));
    command.addAll(label);
    Process run = new ProcessBuilder(command).start();
    run.getOutputStream().close();
    String timing = null;
    try (BufferedReader err = new BufferedReader(new InputStreamReader(run.getErrorStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = err.readLine()) != null; ) {
        System.err.println(line);
        if (line.startsWith("CPU ")) {
          timing = line;
        }
      }
    }
    if (run.waitFor() != 0 || timing == null) {
      throw new IllegalStateException("./tradeoff label for " + q + " queries failed");
    }
    String[] f = timing.split(" ");
    return Double.parseDouble(f[1]) + Double.parseDouble(f[2]);
  }

  /** Runs one child JVM and returns the key=value pairs of its RESULT line. */
  private static Map<String, String> spawn(String mode, Path dir, long q, boolean seeded,
      double sigma) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LabelBenchmark.class.getName());
    command.addAll(List.of(mode, dir.toString(), String.valueOf(q), seeded ? "seeded" : "secure",
        String.valueOf(sigma)));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    Map<String, String> result = new LinkedHashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        System.err.println(line);
        if (line.startsWith("RESULT ")) {
          for (String kv : line.substring(7).split(" ")) {
            int eq = kv.indexOf('=');
            result.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
      }
    }
    if (p.waitFor() != 0 || result.isEmpty()) {
      throw new IllegalStateException(mode + " run for " + q + " queries failed");
    }
    return result;
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double wallSinceStart() {
    return ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
  }

  /**
   * Records the largest heap in use right after each collection, in element 0 of the returned
   * array (read it synchronized on the array).
   */
  static long[] peakLiveHeap() {
    long[] live = {0};
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
        if (!n.getType().equals(GarbageCollectionNotificationInfo
            .GARBAGE_COLLECTION_NOTIFICATION)) {
          return;
        }
        var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData())
            .getGcInfo();
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
          var after = info.getMemoryUsageAfterGc().get(pool.getName());
          if (pool.getType() == MemoryType.HEAP && after != null) {
            used += after.getUsed();
          }
        }
        synchronized (live) {
          live[0] = Math.max(live[0], used);
        }
      }, null, null);
    }
    return live;
  }

  /** {@code job|plain DIR QUERIES seeded|secure SIGMA}: one measured run in this JVM. */
  private static void child(String[] args, boolean job) throws Exception {
    long[] live = peakLiveHeap();
    Path dir = Path.of(args[1]);
    long q = Long.parseLong(args[2]);
    boolean seeded = args[3].equals("seeded");
    double sigma = Double.parseDouble(args[4]);
    Path train = dir.resolve("train.csv");
    Path queries = dir.resolve("queries-" + q + ".csv");
    Path out = dir.resolve("out-" + (job ? "job" : "plain") + "-" + q);
    StringBuilder result = new StringBuilder("RESULT mode=" + (job ? "job" : "plain"));
    long labelled;
    if (job) {
      LabelJob.Request request = new LabelJob.Request(train.toString(), queries.toString(), out,
          new LabelPrivacy.Target(new ApproxDp(EPSILON, DELTA), Aggregator.DP_MAJORITY, 1,
          OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(CLASSES),
          CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT,
          seeded ? OptionalLong.of(1) : OptionalLong.empty(), false);
      long c0 = cpu();
      long w0 = System.nanoTime();
      LabelJob.Plan plan = LabelJob.plan(request);
      result.append(String.format(Locale.ROOT, " plan_cpu_s=%.2f plan_wall_s=%.2f",
          (cpu() - c0) / 1e9, (System.nanoTime() - w0) / 1e9));
      LabelManifest manifest = LabelJob.run(plan, new LabelJob.RunInfo(
          BeamRunner.DIRECT.options(Runtime.getRuntime().availableProcessors()), "direct", null,
          List.of("LabelFloor")), null);
      labelled = manifest.counts().labelled();
    } else {
      labelled = plain(train, queries, out, seeded, sigma);
    }
    System.gc();
    long peak;
    synchronized (live) {
      peak = live[0];
    }
    result.append(String.format(Locale.ROOT, " cpu_s=%.2f wall_s=%.2f peak_live_heap_mb=%.0f "
        + "labelled=%d", cpu() / 1e9, wallSinceStart(), peak / 1048576.0, labelled));
    System.out.println(result);
  }

  /**
   * The floor: the job's work as one loop, with the job's own parsing, feature map, partition,
   * trainer, vote and plurality.
   */
  private static long plain(Path train, Path queries, Path out, boolean seeded, double sigma)
      throws IOException {
    int teachers = 1;
    ClassSet classes = new ClassSet(CLASSES);
    String[] trainHeader;
    String[] queryHeader;
    try (BufferedReader in = Files.newBufferedReader(train)) {
      trainHeader = CsvRecords.cells(in.readLine(), "train", 1);
    }
    try (BufferedReader in = Files.newBufferedReader(queries)) {
      queryHeader = CsvRecords.cells(in.readLine(), "queries", 1);
    }
    CsvSchema trainSchema = CsvSchema.training(trainHeader, CsvSchema.Columns.DEFAULT, "train");
    CsvSchema querySchema = CsvSchema.queries(queryHeader, CsvSchema.Columns.DEFAULT,
        trainSchema, "queries");
    // the feature map's public statistics: one pass over the queries
    PublicStatistics stats = new PublicStatistics(trainSchema.dimension());
    CsvRecords.read(() -> afterHeader(queries), "queries", 2,
        (cells, line) -> stats.add(querySchema.row(cells, "queries", line).features()));
    List<String> names = trainSchema.featureNames();
    LabelJob.FeatureOptions options = LabelJob.FeatureOptions.DEFAULT;
    Featurizer featurizer = new Featurizer.Table(FeatureMap.fromPublic(stats, names,
        IntStream.range(0, names.size()).toArray(), Map.of(), Set.of(), options.hashBuckets(),
        options.clip()));
    // the training rows to their partitions, each partition sorted and trained
    TeacherPartition partition = TeacherPartition.seeded(1, teachers);
    List<List<String>> parts = new ArrayList<>();
    for (int k = 0; k < teachers; k++) {
      parts.add(new ArrayList<>());
    }
    try (BufferedReader in = Files.newBufferedReader(train)) {
      in.readLine();
      for (String line; (line = in.readLine()) != null; ) {
        if (!line.isBlank()) {
          parts.get(partition.of(trainSchema.partitionKey(line))).add(line);
        }
      }
    }
    LabelPrivacy.Training training = LabelPrivacy.Training.DEFAULT;
    PartitionTrainer trainer = PartitionTrainer.Softmax.dp(training.dpSgd(sigma), EPSILON, DELTA);
    ElementRandomness randomness = seeded ? ElementRandomness.seeded(1)
        : ElementRandomness.secure();
    ClassSet.Lookup lookup = classes.lookup();
    TeacherModel[] models = new TeacherModel[teachers];
    int d = featurizer.dimension(trainSchema.dimension());
    for (int k = 0; k < teachers; k++) {
      List<String> lines = parts.get(k);
      lines.sort(null);
      List<double[]> x = new ArrayList<>();
      List<Integer> y = new ArrayList<>();
      for (String line : lines) {
        CsvSchema.Row row = trainSchema.parseOrSkip(line);
        int c = row == null ? -1 : lookup.classOf(row.key());
        if (c >= 0) {
          x.add(featurizer.features(row.features()));
          y.add(c);
        }
      }
      double[] flat = new double[x.size() * d];
      for (int i = 0; i < x.size(); i++) {
        System.arraycopy(x.get(i), 0, flat, i * d, d);
      }
      models[k] = trainer.train(k, new MulticlassData(classes.size(), d, flat,
          y.stream().mapToInt(Integer::intValue).toArray()),
          randomness.forElement("teacher", k));
    }
    // vote, plurality, write id,label
    Plurality plurality = new Plurality(classes.size());
    String[] quoted = classes.names().stream().map(CsvRecords::quote).toArray(String[]::new);
    Files.createDirectories(out);
    try (BufferedWriter w = Files.newBufferedWriter(out.resolve("labels.csv"))) {
      w.write("id,label\n");
      int[] votes = new int[teachers];
      return CsvRecords.read(() -> afterHeader(queries), "queries", 2, (cells, line) -> {
        CsvSchema.Row row = querySchema.row(cells, "queries", line);
        double[] features = featurizer.features(row.features());
        for (int k = 0; k < teachers; k++) {
          votes[k] = models[k].vote(features);
        }
        w.write(CsvRecords.quote(row.key()));
        w.write(',');
        w.write(quoted[plurality.label(row.key(), votes)]);
        w.write('\n');
      });
    }
  }

  /** A CSV file's text after its header line. */
  private static BufferedReader afterHeader(Path file) throws IOException {
    BufferedReader in = Files.newBufferedReader(file);
    in.readLine();
    return in;
  }
}
