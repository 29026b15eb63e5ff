package dev.tradeoff.experiments.label;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.label.PartitionTrainer;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.learning.data.MulticlassData;
import dev.tradeoff.learning.softmax.SoftmaxModel;
import dev.tradeoff.learning.softmax.SoftmaxRegression;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Label accuracy of {@code tradeoff label} ({@link LabelJob#plan} and {@link LabelJob#run} on the
 * DirectRunner, exactly as the command runs it) on three generated tasks, each written as CSV: a
 * training file and Q = 10^5 public queries whose true labels are kept aside.
 *
 * <ol>
 *   <li>{@code two-class}: 3 numeric features, two Gaussian classes with a shared covariance
 *       (so the Bayes rule is linear), 20,000 training rows.
 *   <li>{@code five-class-scales}: 8 numeric features, five Gaussian classes, columns multiplied
 *       by 1e4 (with an offset), 1, 1e2 and 1e-2, 50,000 training rows.
 *   <li>{@code strings-missing}: three classes from two numeric columns and two string columns
 *       (a city and a plan whose distributions depend on the class), 5–15% of the cells empty,
 *       30,000 training rows.
 *   <li>{@code two-class-2k}: the first task with 2,000 training rows (a small table: the DP-SGD
 *       defaults must serve 10^3 rows as well as 10^6).
 * </ol>
 *
 * <p>For each task and budget ((1, 1e-5) and (4, 1e-5)) it runs dp-majority with K = 1 and K = 5,
 * GNMax with K = 11 and (two-class task only) DaRRM γ_Sub with K = 11, and reports each run's
 * accuracy against the true labels beside that of a non-private softmax regression
 * ({@link SoftmaxRegression}, the λ of the job's non-private teachers) trained on the same
 * training rows with the same feature map (the plan's), and the share of labels on which the two
 * agree. The runs are seeded (reproducible; the accuracy is that of an unseeded run in
 * distribution). Prints a Markdown table and writes it to the given file.
 *
 * <p>Usage: {@code LabelAccuracy [OUTPUT.md] [QUERIES]}; the script
 * {@code tradeoff-experiments/label-accuracy} builds the class path and runs it. Not a unit test.
 */
public final class LabelAccuracy {

  private LabelAccuracy() {}

  /** A generated task: its name, classes and how a row is drawn. */
  private interface Task {
    String name();

    String description();

    List<String> classes();

    int trainRows();

    String header();

    /** Draws one row: the feature cells (comma-joined) and its class, into {@code cells}. */
    int draw(SplittableRandom r, StringBuilder cells);
  }

  private static final double[] TWO_MEAN = {0.8, 0.6, 0.3};

  /** Two Gaussian classes, 3 features, means ±μ (‖μ‖ ≈ 1.04, Bayes accuracy ≈ 0.85). */
  private static final class TwoClass implements Task {
    private final int rows;

    TwoClass(int rows) {
      this.rows = rows;
    }

    @Override
    public String name() {
      return rows == 20_000 ? "two-class" : "two-class-" + rows / 1000 + "k";
    }

    @Override
    public String description() {
      return "2 classes, 3 numeric features (N(±μ, I), Bayes accuracy about 0.85)";
    }

    @Override
    public List<String> classes() {
      return List.of("no", "yes");
    }

    @Override
    public int trainRows() {
      return rows;
    }

    @Override
    public String header() {
      return "x0,x1,x2";
    }

    @Override
    public int draw(SplittableRandom r, StringBuilder cells) {
      int y = r.nextInt(2);
      double sign = y == 1 ? 1 : -1;
      for (int j = 0; j < 3; j++) {
        double v = sign * TWO_MEAN[j] + r.nextGaussian() + (j == 0 ? 3 : 0);
        cells.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.5f", v));
      }
      return y;
    }
  }

  /** Five Gaussian classes in 8 dimensions, columns on scales from 1e-2 to 1e4. */
  private static final class FiveClass implements Task {
    private static final double[] SCALE = {1e4, 1e4, 1, 1, 1e2, 1e2, 1e-2, 1e-2};
    private static final double[] OFFSET = {5e4, -2e4, 0, 10, 300, 0, 0, 0.05};
    private final double[][] means = new double[5][8];

    FiveClass() {
      SplittableRandom r = new SplittableRandom(5);
      for (double[] m : means) {
        for (int j = 0; j < m.length; j++) {
          m[j] = 0.9 * r.nextGaussian();
        }
      }
    }

    @Override
    public String name() {
      return "five-class-scales";
    }

    @Override
    public String description() {
      return "5 classes, 8 numeric features (Gaussian classes, columns times 1e4, 1, 1e2, 1e-2)";
    }

    @Override
    public List<String> classes() {
      return List.of("a", "b", "c", "d", "e");
    }

    @Override
    public int trainRows() {
      return 50_000;
    }

    @Override
    public String header() {
      return "f0,f1,f2,f3,f4,f5,f6,f7";
    }

    @Override
    public int draw(SplittableRandom r, StringBuilder cells) {
      int y = r.nextInt(5);
      for (int j = 0; j < 8; j++) {
        double v = (means[y][j] + r.nextGaussian()) * SCALE[j] + OFFSET[j];
        cells.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6g", v));
      }
      return y;
    }
  }

  /** Three classes from two numeric and two string columns, with empty cells. */
  private static final class Strings implements Task {
    private static final String[] CITIES = {"Lyon", "Paris", "Nice", "Lille", "Brest", "Metz",
        "Caen", "Dijon", "Tours", "Nancy", "Reims", "Pau"};
    private static final String[] PLANS = {"basic", "plus", "pro", "enterprise"};

    @Override
    public String name() {
      return "strings-missing";
    }

    @Override
    public String description() {
      return "3 classes, numeric amount and age, string city (12 values) and plan (4 values) "
          + "whose distributions depend on the class, 5-15% empty cells";
    }

    @Override
    public List<String> classes() {
      return List.of("churn", "stay", "upgrade");
    }

    @Override
    public int trainRows() {
      return 30_000;
    }

    @Override
    public String header() {
      return "amount,age,city,plan";
    }

    @Override
    public int draw(SplittableRandom r, StringBuilder cells) {
      int y = r.nextInt(3);
      double amount = 40 * Math.exp(0.35 * (y - 1) + 0.6 * r.nextGaussian());
      double age = 40 + 6 * (y == 0 ? -1 : y == 2 ? 1 : 0) + 12 * r.nextGaussian();
      // each class favours four cities of its own half the time
      String city = r.nextDouble() < 0.5 ? CITIES[4 * y + r.nextInt(4)]
          : CITIES[r.nextInt(CITIES.length)];
      // and its own plan 45% of the time (class 2 favours "pro")
      String plan = r.nextDouble() < 0.45 ? PLANS[y == 2 ? 2 : y]
          : PLANS[r.nextInt(PLANS.length)];
      cells.append(r.nextDouble() < 0.15 ? "" : String.format(Locale.ROOT, "%.2f", amount))
          .append(',')
          .append(r.nextDouble() < 0.10 ? "" : String.format(Locale.ROOT, "%.0f", age))
          .append(',').append(r.nextDouble() < 0.08 ? "" : city)
          .append(',').append(r.nextDouble() < 0.05 ? "" : plan);
      return y;
    }
  }

  /** One row of the table. */
  private record Result(String task, double epsilon, String method, int teachers,
      double accuracy, double agreement, double nonPrivate, double sigma, double chargedEpsilon,
      double cpuSeconds, String note) {}

  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "label-accuracy.md");
    int queries = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    Path dir = Files.createTempDirectory("label-accuracy");
    List<Result> results = new ArrayList<>();
    StringBuilder tasks = new StringBuilder();
    try {
      for (Task task : List.of(new TwoClass(20_000), new FiveClass(), new Strings(),
          new TwoClass(2_000))) {
        tasks.append("- ").append(task.name()).append(": ").append(task.description())
            .append("; ").append(task.trainRows()).append(" training rows, Q = ").append(queries)
            .append(" queries\n");
        results.addAll(runTask(dir, task, queries));
        Files.writeString(report, table(tasks.toString(), results));
      }
    } finally {
      delete(dir);
    }
    String md = table(tasks.toString(), results);
    Files.writeString(report, md);
    System.out.print(md);
  }

  private static List<Result> runTask(Path dir, Task task, int queries) throws IOException {
    Path taskDir = dir.resolve(task.name());
    Files.createDirectories(taskDir);
    Path train = taskDir.resolve("train.csv");
    Path query = taskDir.resolve("queries.csv");
    write(train, task, task.trainRows(), true, 11);
    int[] truth = write(query, task, queries, false, 12);
    List<Result> results = new ArrayList<>();
    for (double epsilon : new double[] {1, 4}) {
      List<Object[]> configs = new ArrayList<>();
      configs.add(new Object[] {Aggregator.DP_MAJORITY, 1});
      configs.add(new Object[] {Aggregator.DP_MAJORITY, 5});
      configs.add(new Object[] {Aggregator.GNMAX, 11});
      if (task.classes().size() == 2) {
        configs.add(new Object[] {Aggregator.DARRM_SUB, 11});
      }
      int[] nonPrivate = null;
      double nonPrivateAccuracy = Double.NaN;
      for (Object[] config : configs) {
        Aggregator aggregator = (Aggregator) config[0];
        int k = (Integer) config[1];
        Path out = taskDir.resolve("out-" + aggregator.cliName() + "-" + k + "-" + epsilon);
        LabelJob.Request request = new LabelJob.Request(train.toString(), query.toString(), out,
            new LabelPrivacy.Target(new ApproxDp(epsilon, 1e-5), aggregator, k,
            OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(task.classes()),
            CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(1000 + k),
            false);
        long cpu0 = cpu();
        LabelJob.Plan plan;
        try {
          plan = LabelJob.plan(request);
        } catch (RuntimeException e) {
          results.add(new Result(task.name(), epsilon, aggregator.cliName(), k, Double.NaN,
              Double.NaN, nonPrivateAccuracy, Double.NaN, Double.NaN, (cpu() - cpu0) / 1e9,
              "refused at plan: " + e.getMessage()));
          System.err.println(results.get(results.size() - 1));
          if (aggregator.isDarrm() && nonPrivate != null) {
            // DaRRM's per-label derivation cannot be planned for this Q: show it where it can
            for (int fewer : new int[] {1000, 100}) {
              Result r = fewerQueries(taskDir, task, request, query, fewer, truth, nonPrivate);
              if (r != null) {
                results.add(r);
                System.err.println(r);
                break;
              }
            }
          }
          continue;
        }
        if (nonPrivate == null) {
          nonPrivate = nonPrivateLabels(plan, train, query, task.classes().size());
          nonPrivateAccuracy = agreement(nonPrivate, truth);
        }
        LabelManifest manifest = LabelJob.run(plan, new LabelJob.RunInfo(
            BeamRunner.DIRECT.options(2), "direct", null, List.of("LabelAccuracy")), null);
        double seconds = (cpu() - cpu0) / 1e9;
        int[] labels = readLabels(out, task.classes(), queries);
        delete(out);
        double sigma = plan.privacy().trainer() instanceof PartitionTrainer.Softmax s
            && s.dpSgd() != null ? s.dpSgd().noiseMultiplier()
            : plan.privacy().gnmax() != null ? plan.privacy().gnmax().sigma() : Double.NaN;
        results.add(new Result(task.name(), epsilon, aggregator.cliName(), k,
            agreement(labels, truth), agreement(labels, nonPrivate), nonPrivateAccuracy, sigma,
            manifest.guarantee().epsilon(), seconds, ""));
        System.err.println(results.get(results.size() - 1));
      }
    }
    return results;
  }

  /**
   * The same request on the first {@code fewer} queries, or null if that too is refused; its
   * accuracy and agreement are over those queries, against the non-private model's ceiling there.
   */
  private static Result fewerQueries(Path taskDir, Task task, LabelJob.Request request,
      Path query, int fewer, int[] truth, int[] nonPrivate) throws IOException {
    Path prefix = taskDir.resolve("queries-" + fewer + ".csv");
    try (Stream<String> lines = Files.lines(query)) {
      Files.write(prefix, (Iterable<String>) lines.limit(fewer + 1L)::iterator);
    }
    Path out = Path.of(request.out() + "-" + fewer);
    LabelJob.Request r = new LabelJob.Request(request.train(), prefix.toString(), out,
        request.privacy(), request.classes(), request.columns(), request.features(), request.seed(),
        false);
    long cpu0 = cpu();
    LabelJob.Plan plan;
    try {
      plan = LabelJob.plan(r);
    } catch (RuntimeException e) {
      return null;
    }
    LabelManifest manifest = LabelJob.run(plan, new LabelJob.RunInfo(
        BeamRunner.DIRECT.options(2), "direct", null, List.of("LabelAccuracy")), null);
    double seconds = (cpu() - cpu0) / 1e9;
    int[] labels = readLabels(out, task.classes(), fewer);
    delete(out);
    int[] t = java.util.Arrays.copyOf(truth, fewer);
    int[] np = java.util.Arrays.copyOf(nonPrivate, fewer);
    double sigma = plan.privacy().trainer() instanceof PartitionTrainer.Softmax s
        && s.dpSgd() != null ? s.dpSgd().noiseMultiplier() : Double.NaN;
    return new Result(task.name(), request.budget().epsilon(), request.aggregator().cliName(),
        request.teachers(), agreement(labels, t), agreement(labels, np), agreement(np, t), sigma,
        manifest.guarantee().epsilon(), seconds, "on the first " + fewer + " queries only (Q = "
        + fewer + " planned; the non-private column is over the same queries)");
  }

  /**
   * The non-private ceiling: softmax regression by L-BFGS on every training row, through the
   * plan's own feature map, then its labels of the queries.
   */
  private static int[] nonPrivateLabels(LabelJob.Plan plan, Path train, Path query, int classes)
      throws IOException {
    CsvSchema ts = plan.trainSchema();
    List<String> names = plan.request().classes().names();
    int d = plan.featurizer().map().dimension();
    List<double[]> rows = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    CsvRecords.read(() -> Files.newBufferedReader(train), train.toString(), 1, (cells, line) -> {
      if (line > 1) { // the header
        rows.add(plan.featurizer().features(pick(cells, ts.featureColumns())));
        labels.add(names.indexOf(cells[ts.keyColumn()]));
      }
    });
    double[] flat = new double[rows.size() * d];
    int[] y = new int[rows.size()];
    for (int i = 0; i < y.length; i++) {
      System.arraycopy(rows.get(i), 0, flat, i * d, d);
      y[i] = labels.get(i);
    }
    SoftmaxModel model = new SoftmaxRegression(PartitionTrainer.Softmax.NON_PRIVATE_LAMBDA)
        .fit(new MulticlassData(classes, d, flat, y));
    CsvSchema qs = plan.querySchema();
    List<Integer> predicted = new ArrayList<>();
    CsvRecords.read(() -> Files.newBufferedReader(query), query.toString(), 1, (cells, line) -> {
      if (line > 1) { // the header
        predicted.add(model.predict(plan.featurizer().features(pick(cells,
            qs.featureColumns()))));
      }
    });
    return predicted.stream().mapToInt(Integer::intValue).toArray();
  }

  private static String[] pick(String[] cells, int[] columns) {
    String[] out = new String[columns.length];
    for (int j = 0; j < columns.length; j++) {
      out[j] = cells[columns[j]];
    }
    return out;
  }

  /** Writes the task's rows: training rows with a label column, queries with an id column. */
  private static int[] write(Path file, Task task, int rows, boolean train, long seed)
      throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    int[] truth = new int[rows];
    StringBuilder cells = new StringBuilder();
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      w.write((train ? "label," : "id,") + task.header());
      w.newLine();
      for (int i = 0; i < rows; i++) {
        cells.setLength(0);
        int y = task.draw(r, cells);
        truth[i] = y;
        w.write(train ? task.classes().get(y) : "q" + i);
        w.write(',');
        w.append(cells);
        w.newLine();
      }
    }
    return truth;
  }

  private static int[] readLabels(Path out, List<String> classes, int queries) throws IOException {
    int[] labels = new int[queries];
    java.util.Arrays.fill(labels, -1);
    Map<String, Integer> index = new HashMap<>();
    for (int c = 0; c < classes.size(); c++) {
      index.put(classes.get(c), c);
    }
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("labels-"))
          .toList()) {
        try (BufferedReader in = Files.newBufferedReader(f)) {
          in.readLine();
          for (String line; (line = in.readLine()) != null; ) {
            int comma = line.indexOf(',');
            labels[Integer.parseInt(line.substring(1, comma))] =
                index.get(line.substring(comma + 1));
          }
        }
      }
    }
    return labels;
  }

  private static double agreement(int[] a, int[] b) {
    int same = 0;
    for (int i = 0; i < a.length; i++) {
      same += a[i] == b[i] ? 1 : 0;
    }
    return same / (double) a.length;
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String table(String tasks, List<Result> results) {
    StringBuilder s = new StringBuilder();
    s.append("Label accuracy of `tradeoff label` (LabelJob on the DirectRunner, seeded), ")
        .append("DP-SGD defaults ").append(LabelPrivacy.Training.DEFAULT).append(", δ = 1e-5.\n\n")
        .append(tasks).append('\n')
        .append("| task | ε | aggregator | K | accuracy | non-private softmax | gap (points) | "
            + "agrees with non-private | σ | charged ε | CPU-s | note |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Result r : results) {
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.4f | %.4f | %+.2f | %.4f | "
          + "%.4g | %.4g | %.1f | %s |%n", r.task(), fmt(r.epsilon()), r.method(), r.teachers(),
          r.accuracy(), r.nonPrivate(), 100 * (r.accuracy() - r.nonPrivate()), r.agreement(),
          r.sigma(), r.chargedEpsilon(), r.cpuSeconds(), r.note().replace('|', '/')));
    }
    return s.toString();
  }

  private static String fmt(double x) {
    return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
