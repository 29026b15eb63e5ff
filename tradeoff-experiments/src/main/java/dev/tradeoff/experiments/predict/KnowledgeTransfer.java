package dev.tradeoff.experiments.predict;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.composition.KairouzComposition;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.CountedShards;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvInput;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.Featurizer;
import dev.tradeoff.beam.label.LabelPipeline;
import dev.tradeoff.beam.label.LabelShards;
import dev.tradeoff.beam.label.PartitionTrainer;
import dev.tradeoff.beam.label.Plurality;
import dev.tradeoff.beam.label.ReadCsvLines;
import dev.tradeoff.beam.label.TeacherModel;
import dev.tradeoff.beam.label.TeacherPartition;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.teachers.DpSgdTeachers;
import dev.tradeoff.learning.teachers.TeacherTrainer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Private semi-supervised knowledge transfer, [DaRRM24, Section 6.2,
 * Tables 1 and 2]: K teachers on disjoint shards of the sensitive training data answer
 * Q queries (test points) with a private majority; the accuracy of the released labels is measured
 * over repeated draws of the queries.
 *
 * <ul>
 *   <li>GNMax (baseline) aggregates K <em>non-private</em> teachers with Gaussian noise calibrated to
 *       the per-query target (m ε, δ) (RDP grid search, [DaRRM24, Appendix D.2.1]);
 *   <li>DaRRM γ_Sub and DaRRM γ_opt aggregate K (ε, Δ)-DP teachers (DP-SGD, ε computed by the
 *       accountant), each label (m ε, δ)-DP with δ = 1 − (1 − Δ)^m; γ_opt is optimised for the
 *       paper's Section 5 surrogate objective (p_i i.i.d. uniform on [0.5, 1), p̄ = 3/4) and
 *       certified by the exact verifier.
 * </ul>
 *
 * <p>The per-deployment privacy (Table 2) is the Q-fold composition of the per-query target, by
 * Kairouz et al.'s general composition with δ′ = 1e-4 (the paper's) and by the tightest accountant
 * ({@link RunGuarantee}) at the same δ; it is computed, and checked against the optional budget,
 * before any teacher is trained.
 *
 * <p>The experiment is the label job ({@code tradeoff label}) applied to the paper's data: the
 * training records and the drawn queries are written as CSV to a scratch directory, and one Beam
 * pipeline built from the job's transforms reads them, partitions the records by the job's keyed
 * hash and trains the teachers one per partition ({@link LabelPipeline.Teachers}), then reads the
 * queries in byte ranges once the models are ready, votes, applies each aggregator's
 * {@link PrivateMajority} per query (over all Q × repeats simulated deployments) and writes the
 * labels ({@link LabelShards}); they are then read back and scored against the true labels.
 */
public final class KnowledgeTransfer {

  /** δ′ of the paper's Table 2 (general composition). */
  public static final double TABLE2_SLACK = 1e-4;

  /** The label job's aggregators in the order of Table 1: GNMax, DaRRM γ_Sub, DaRRM γ_opt. */
  public static final List<Aggregator> TABLE1 =
      List.of(Aggregator.GNMAX, Aggregator.DARRM_SUB, Aggregator.DARRM_OPT);

  /**
   * How the private teachers are trained.
   *
   * @param teacherEpsilon per-teacher ε target (σ calibrated), or NaN to use {@code sigma}
   * @param teacherDelta Δ
   * @param sigma DP-SGD noise multiplier (used when teacherEpsilon is NaN)
   * @param clip clipping norm C
   * @param epochs epochs
   */
  public record Training(double teacherEpsilon, double teacherDelta, double sigma, double clip,
      double epochs) {
    /** Smallest DP-SGD noise multiplier: below, no ε the accountant can bound is met. */
    public static final double MIN_SIGMA = 0.3;

    /**
     * The one check of these values (the {@code predict} command's flags are named as the
     * parameters are, with {@code --} in front); each range is where a run is meaningful and ends.
     */
    public Training {
      Require.openUnit("teacher-delta", teacherDelta);
      if (!Double.isNaN(teacherEpsilon)) {
        Require.positive("teacher-epsilon", teacherEpsilon);
      }
      Require.that(sigma >= MIN_SIGMA && sigma <= 1e4, "sigma", "must be in [" + MIN_SIGMA
          + ", 10000] (a DP-SGD noise multiplier: smaller ones cost more than any epsilon the"
          + " accountant can bound)", sigma);
      Require.that(clip >= 1e-6 && clip <= 1e6, "clip", "must be in [1e-6, 1e6] (a clipping"
          + " norm of per-example gradients)", clip);
      Require.that(epochs >= 0.01 && epochs <= 10_000, "epochs", "must be in [0.01, 10000]"
          + " (passes over each teacher's data)", epochs);
    }
  }

  /**
   * One experiment.
   *
   * @param teachers K, odd
   * @param allowance m ∈ [1, K]
   * @param queries the values of Q
   * @param repeats draws of the queries per Q
   * @param seed reproducible run (training, query draws, aggregation noise) when present
   * @param budget if present, every deployment of Q queries must stay within it (checked before
   *     any training)
   */
  public record Config(int teachers, double allowance, Training training, List<Integer> queries,
      int repeats, BeamRunner runner, OptionalLong seed, Optional<ApproxDp> budget) {
    /** Most teachers: DaRRM's verifier and LP cost grow with K². */
    public static final int MAX_TEACHERS = 1001;

    /**
     * The one check of these values (named as the {@code predict} command's flags are, less the
     * {@code --}).
     */
    public Config {
      Require.inClosedRange("teachers", teachers, 1, MAX_TEACHERS);
      Require.that(teachers % 2 == 1, "teachers", "must be odd (DaRRM's majority has no ties)",
          teachers);
      Require.that(allowance >= 1 && allowance <= teachers, "m", "must be in [1, " + teachers
          + "] (the privacy allowance, between 1 and teachers)", allowance);
      Require.nonNull("training", training);
      queries = List.copyOf(Require.nonNull("queries", queries));
      Require.that(!queries.isEmpty(), "queries", "must list at least one Q", queries);
      for (int q : queries) {
        Require.inClosedRange("queries", q, 1, 1_000_000);
      }
      Require.inClosedRange("repeats", repeats, 1, 10_000);
      Require.nonNull("runner", runner);
      Require.nonNull("seed", seed);
      Require.nonNull("budget", budget);
    }
  }

  /** Mean and standard deviation of one aggregator's accuracy at one Q. */
  public record Accuracy(int queries, Aggregator aggregator, double mean, double std) {}

  /**
   * Table 2: per-query and total privacy of one deployment of Q queries, by the paper's
   * per-label composition, and the post-processing bound beside it.
   *
   * @param postProcessing the DP-SGD teachers' own (ε, Δ): they are trained once on disjoint
   *     partitions, so every DaRRM label is post-processing of K models that are together as
   *     private as one (parallel composition), for any Q; this is the tighter bound for this
   *     experiment's construction (REPRODUCTION.md, "Predict: the post-processing bound")
   */
  public record Privacy(int queries, ApproxDp perQuery, ApproxDp totalGeneral,
      ApproxDp totalAccountant, String accountant, ApproxDp postProcessing) {}

  /** The whole outcome. */
  public record Result(ApproxDp teacher, DarrmSetting setting, double gnmaxSigma,
      double[] gammaSub, double[] gammaOpt, List<Accuracy> accuracy, List<Privacy> privacy,
      double nonPrivateMajorityAccuracy, int trainSize,
      int testSize) {}

  /** Phases reported to a progress bar. */
  @FunctionalInterface
  public interface Progress {
    /** A named phase starts (writing the data, optimising γ, the pipeline). */
    void phase(String name);
  }

  /** The label values of the CSV files the experiment writes: 0 (negative) and 1 (positive). */
  static final List<String> CLASSES = List.of("0", "1");

  /** The files the experiment writes into its scratch directory and labels in one pipeline. */
  record DataFiles(Path train, Path queries, Path test, Path labels) {
    static DataFiles in(Path work) {
      return new DataFiles(work.resolve("train.csv"), work.resolve("queries.csv"),
          work.resolve("test.csv"), work.resolve("labels"));
    }

    /** The label shards' prefix of one output (inside the {@link #labels} directory). */
    String prefix(String output) {
      return labels.resolve(output).toString();
    }
  }

  /** Everything the pipeline needs, fixed before it is built. */
  record Setup(DataFiles files, int dimension, int teachers, TeacherPartition partition,
      DpSgd dpSgd, ElementRandomness randomness, Map<Aggregator, PrivateMajority> majorities) {}

  private KnowledgeTransfer() {}

  /**
   * Checks everything that can be checked without training: K odd and at most the number of
   * training examples, m in range, Q at most the number of test points.
   */
  public static void validate(Config config, BinaryTask task) {
    Require.that(config.teachers() <= task.train().size(), "teachers",
        "must be at most the number of training examples (" + task.train().size() + ")",
        config.teachers());
    int maxQ = config.queries().stream().max(Comparator.naturalOrder()).orElseThrow();
    Require.that(maxQ <= task.test().size(), "queries",
        "must be at most the number of test examples (" + task.test().size() + ")", maxQ);
  }

  /**
   * Runs the experiment as the label job ({@link LabelPipeline}) on the task: the training records
   * and the drawn queries are written as CSV into {@code work} (an empty scratch directory), read
   * back by the job's transforms, and the labels it writes are scored against the true ones.
   */
  public static Result run(Config config, BinaryTask task, Progress progress, Path work) {
    validate(config, task);
    RandomGenerator random = config.seed().isPresent()
        ? dev.tradeoff.mechanisms.random.Randomness.seeded(config.seed().getAsLong())
        : dev.tradeoff.mechanisms.random.Randomness.secure();
    Dataset train = task.train();
    Dataset test = task.test();
    int k = config.teachers();

    // Everything privacy-related is fixed before any training: the trainer's (ε, Δ) comes from
    // the accountant, then the DaRRM setting, γ's, GNMax's σ and each deployment's guarantee.
    Training t = config.training();
    var accountant = new dev.tradeoff.accounting.pld.PldAccountant();
    TeacherTrainer.DpSgdTrainer trainer = Double.isNaN(t.teacherEpsilon())
        ? DpSgdTeachers.withNoise(t.sigma(), t.clip(), t.epochs(), train.size(), k,
            t.teacherDelta(), accountant)
        : DpSgdTeachers.forBudget(t.teacherEpsilon(), t.teacherDelta(), t.clip(), t.epochs(),
            train.size(), k, accountant);
    ApproxDp teacher = trainer.guarantee();
    DarrmSetting setting = DarrmSetting.withDefaultDelta(k, teacher.epsilon(), teacher.delta(),
        config.allowance());
    List<Privacy> privacy = new ArrayList<>();
    ApproxDp perQuery = setting.target();
    for (int q : config.queries()) {
      ApproxDp general = KairouzComposition.compose(perQuery, q, TABLE2_SLACK);
      RunGuarantee tight = RunGuarantee.of(List.of(new Release("Q" + q,
          new SelfComposedEvent(new GuaranteeEvent(perQuery), q))), general.delta());
      privacy.add(new Privacy(q, perQuery, general, tight.total(), tight.method().cliName(),
          teacher));
      if (config.budget().isPresent() && !tight.within(config.budget().get())) {
        throw new BudgetExceededException("predict, Q = " + q + " queries", tight.total(),
            config.budget().get());
      }
    }

    progress.phase("certifying gamma_Sub and optimising gamma_opt");
    PrivacyVerifier verifier = new PrivacyVerifier(setting);
    NoiseFunction gammaSub = Baseline.SUBSAMPLING.certified(verifier).gamma();
    NoiseFunction gammaOpt = new GammaOptimizer(setting)
        .optimize(new Objective.Surrogate(0.75)).gamma();
    GnMax gnmax = GnMax.calibrated(setting.target());

    // Query draws: for each Q and repeat, Q distinct test indices.
    Map<Integer, int[][]> draws = new HashMap<>();
    for (int q : config.queries()) {
      int[][] d = new int[config.repeats()][];
      for (int r = 0; r < config.repeats(); r++) {
        d[r] = sample(test.size(), q, random);
      }
      draws.put(q, d);
    }
    int total = draws.keySet().stream().mapToInt(q -> q * config.repeats()).sum();

    progress.phase("writing " + train.size() + " training records and " + total
        + " queries as CSV");
    ElementRandomness noise = config.seed().isPresent()
        ? ElementRandomness.seeded(config.seed().getAsLong()) : ElementRandomness.secure();
    TeacherPartition partition = config.seed().isPresent()
        ? TeacherPartition.seeded(config.seed().getAsLong(), k) : TeacherPartition.secure(k);
    Map<Aggregator, PrivateMajority> majorities = new EnumMap<>(Aggregator.class);
    majorities.put(Aggregator.GNMAX, PrivateMajority.gnmax(gnmax, CLASSES.size(), total, noise));
    majorities.put(Aggregator.DARRM_SUB, PrivateMajority.darrm(setting, gammaSub, total, noise));
    majorities.put(Aggregator.DARRM_OPT, PrivateMajority.darrm(setting, gammaOpt, total, noise));
    DataFiles files = DataFiles.in(work);
    List<String[]> released;
    try {
      writeData(files, task, draws, partition);
      Setup setup = new Setup(files, train.dimension(), k, partition, trainer.dpSgd(), noise,
          majorities);
      // One pipeline labels every simulated deployment (Q queries, one draw) at once; each
      // deployment's guarantee is the Table 2 row checked above, not the sum over the
      // simulation.
      progress.phase("training " + k + " non-private and " + k + " DP-SGD teachers and "
          + "labelling on the " + config.runner().cliName() + " runner");
      PipelineResult.State state = pipeline(config.runner().options(2), setup).run()
          .waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("pipeline ended in state " + state);
      }
      released = new ArrayList<>();
      for (Aggregator a : TABLE1) {
        released.addAll(readLabels(files.prefix(a.name()), a.name(), total));
      }
      released.addAll(readLabels(files.prefix(REFERENCE), REFERENCE, test.size()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the labels in " + files.labels() + ": "
          + e.getMessage(), e);
    } finally {
      deleteCreated(files);
    }

    // correct["aggregator Q"][repeat], from the labels' ids NAME/Q-repeat-testIndex
    Map<String, int[]> correct = new HashMap<>();
    int plainCorrect = 0;
    int referenceSize = 0;
    for (String[] label : released) {
      int slash = label[0].indexOf('/');
      String name = label[0].substring(0, slash);
      String[] id = label[0].substring(slash + 1).split("-");
      boolean right = Integer.parseInt(label[1]) == test.label(Integer.parseInt(id[id.length - 1]));
      if (name.equals(REFERENCE)) {
        referenceSize++;
        plainCorrect += right ? 1 : 0;
      } else {
        int[] c = correct.computeIfAbsent(name + " " + id[0], x -> new int[config.repeats()]);
        c[Integer.parseInt(id[1])] += right ? 1 : 0;
      }
    }
    List<Accuracy> accuracy = new ArrayList<>();
    for (int q : config.queries()) {
      for (Aggregator a : TABLE1) {
        int[] c = correct.getOrDefault(a.name() + " " + q, new int[config.repeats()]);
        double mean = 0;
        for (int v : c) {
          mean += (double) v / q / c.length;
        }
        double var = 0;
        for (int v : c) {
          var += Math.pow((double) v / q - mean, 2);
        }
        double std = c.length > 1 ? Math.sqrt(var / (c.length - 1)) : 0;
        accuracy.add(new Accuracy(q, a, mean, std));
      }
    }
    return new Result(teacher, setting, gnmax.sigma(), gammaSub.values(),
        gammaOpt.values(), accuracy, privacy, (double) plainCorrect / referenceSize,
        train.size(), test.size());
  }

  /**
   * The experiment's pipeline, built from the label job's transforms only: the training CSV to K
   * non-private teachers (for GNMax, as in the paper) and K DP-SGD teachers (for DaRRM), both on
   * the same keyed-hash partitions ({@link LabelPipeline.Teachers}); the drawn queries labelled by
   * each aggregator's private majority, and every test point by the non-private teachers' plain
   * majority (a reference figure, never released), each written as {@code id,label} shards
   * ({@link LabelShards}).
   */
  static Pipeline pipeline(PipelineOptions options, Setup s) {
    Pipeline pipeline = Pipeline.create(options);
    CsvInput train = CsvInput.resolve("train", s.files().train().toString());
    CsvSchema trainSchema = CsvSchema.training(train.header(), train.location());
    CsvInput queries = CsvInput.resolve("queries", s.files().queries().toString());
    CsvSchema querySchema = CsvSchema.queries(queries.header(), queries.location(), trainSchema);
    ClassSet classes = new ClassSet(CLASSES);
    Featurizer features = new Featurizer.UnitNorm();
    PCollectionView<Map<Integer, TeacherModel>> plain = pipeline.apply("NonPrivateTeachers",
        new LabelPipeline.Teachers(train.files(), s.partition(), trainSchema, classes, features,
            new PartitionTrainer.Logistic(null), s.randomness()));
    PCollectionView<Map<Integer, TeacherModel>> dp = pipeline.apply("DpSgdTeachers",
        new LabelPipeline.Teachers(train.files(), s.partition(), trainSchema, classes, features,
            new PartitionTrainer.Logistic(s.dpSgd()), s.randomness()));
    List<ReadCsvLines.RecordRange> queryRanges = queries.scan(querySchema,
        ReadCsvLines.DEFAULT_RANGE_BYTES, row -> { }).ranges();
    for (Aggregator a : TABLE1) {
      pipeline.apply("Label" + a.name(), new LabelShards(queryRanges, querySchema,
          s.teachers(), a == Aggregator.GNMAX ? plain : dp, features,
          s.majorities().get(a).perQuery(), CLASSES, s.files().prefix(a.name())));
    }
    pipeline.apply("LabelReference", new LabelShards(
        CsvInput.resolve("test", s.files().test().toString()).scan(querySchema,
            ReadCsvLines.DEFAULT_RANGE_BYTES, row -> { }).ranges(), querySchema,
        s.teachers(), plain, features, new Plurality(CLASSES.size()), CLASSES,
        s.files().prefix(REFERENCE)));
    return pipeline;
  }

  /** The output's name for the non-private reference labels. */
  private static final String REFERENCE = "REFERENCE";

  /** Feature column names of the written CSV: x0 .. x(d-1), after the key column. */
  private static String[] header(String key, int dimension) {
    String[] h = new String[dimension + 1];
    h[0] = key;
    for (int j = 0; j < dimension; j++) {
      h[j + 1] = "x" + j;
    }
    return h;
  }

  /**
   * Writes the training records (label 0 or 1, then the features) and two query files: the draws,
   * with ids {@code Q-repeat-testIndex}, and every test point, with its index as id.
   *
   * @throws IllegalArgumentException if a teacher's partition would receive no record
   */
  private static void writeData(DataFiles files, BinaryTask task, Map<Integer, int[][]> draws,
      TeacherPartition partition) {
    Dataset train = task.train();
    Dataset test = task.test();
    int d = train.dimension();
    long[] sizes = new long[partition.teachers()];
    try {
      Files.createDirectories(files.labels());
      try (BufferedWriter w = Files.newBufferedWriter(files.train())) {
        w.write(String.join(",", header(CsvSchema.LABEL, d)) + "\n");
        for (int i = 0; i < train.size(); i++) {
          String line = row(CLASSES.get(train.label(i)), train, i);
          sizes[partition.of(line)]++;
          w.write(line + "\n");
        }
      }
      try (BufferedWriter w = Files.newBufferedWriter(files.queries())) {
        w.write(String.join(",", header(CsvSchema.ID, d)) + "\n");
        for (var draw : draws.entrySet()) {
          int[][] repeats = draw.getValue();
          for (int r = 0; r < repeats.length; r++) {
            for (int i : repeats[r]) {
              w.write(row(draw.getKey() + "-" + r + "-" + i, test, i) + "\n");
            }
          }
        }
      }
      try (BufferedWriter w = Files.newBufferedWriter(files.test())) {
        w.write(String.join(",", header(CsvSchema.ID, d)) + "\n");
        for (int i = 0; i < test.size(); i++) {
          w.write(row(String.valueOf(i), test, i) + "\n");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the experiment's data to " + files.train()
          .getParent() + ": " + e.getMessage(), e);
    }
    for (int t = 0; t < sizes.length; t++) {
      if (sizes[t] == 0) {
        throw new IllegalArgumentException("teachers must be few enough that each of the K "
            + "partitions receives a training record, but partition " + t + " of "
            + sizes.length + " receives none (" + train.size() + " records); use fewer teachers");
      }
    }
  }

  /** One CSV row: the key, then the features (shortest exact decimal form). */
  private static String row(String key, Dataset data, int i) {
    StringBuilder b = new StringBuilder(key);
    for (double v : data.row(i)) {
      b.append(',').append(v);
    }
    return b.toString();
  }

  /**
   * The (NAME/id, label) cells of the label shards that the job's {@link LabelShards} completed
   * under {@code prefix}, headers skipped; every one of the {@code expected} queries must be there.
   */
  private static List<String[]> readLabels(String prefix, String name, int expected)
      throws IOException {
    List<String[]> labels = new ArrayList<>();
    for (CountedShards.Completed shard : CountedShards.completed(prefix)) {
      CsvRecords.read(() -> Files.newBufferedReader(Path.of(shard.path())), shard.path(), 1,
          (cells, line) -> {
            if (line > 1) { // the header
              labels.add(new String[] {name + "/" + cells[0], cells[1]});
            }
          });
    }
    if (labels.size() != expected) {
      throw new IllegalStateException("the pipeline labelled " + labels.size() + " queries for "
          + name + ", not the " + expected + " written");
    }
    return labels;
  }

  /** Deletes what the experiment wrote into its scratch directory. */
  private static void deleteCreated(DataFiles files) {
    try {
      for (Path p : List.of(files.train(), files.queries(), files.test())) {
        Files.deleteIfExists(p);
      }
      deleteRecursively(files.labels());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code k} distinct indices of [0, n), uniformly (partial Fisher–Yates). */
  private static int[] sample(int n, int k, RandomGenerator random) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    for (int i = 0; i < k; i++) {
      int j = i + random.nextInt(n - i);
      int tmp = all[i];
      all[i] = all[j];
      all[j] = tmp;
    }
    return Arrays.copyOf(all, k);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
