package dev.tradeoff.beam.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Private labels for a user's unlabelled data from K private teachers trained on their sensitive
 * data: PATE-style knowledge transfer with a private majority per query (DaRRM, [DaRRM24,
 * Sections 5–6]; GNMax, [PSMRTE18]), as one Beam pipeline that runs on any runner.
 *
 * <ol>
 *   <li>{@link #plan}: resolves the inputs, counts and checks the queries, fixes every privacy
 *       parameter from (E, D) and Q ({@link LabelPrivacy}), then checks the training data (labels,
 *       partitions) in one streaming pass. Nothing is trained; bad input is an
 *       {@link IllegalArgumentException}, a spend over the budget a
 *       {@link BudgetExceededException}.
 *   <li>{@link #run}: charges the run's guarantee to the caller's {@link BudgetStore} (before anything
 *       is written), then runs the pipeline: training lines through {@code TextIO} to K
 *       partitions by a keyed hash, one teacher per partition ({@link LabelPipeline.Teachers}),
 *       the models as a side input; once they are ready, the query files in byte ranges, each
 *       range read, voted, labelled by the private majority per query
 *       ({@link PrivateMajority#perQuery}) and written in one step ({@link LabelShards}) into a
 *       hidden temporary directory of the output. Then it commits: an {@code _INCOMPLETE} marker, the shards renamed
 *       into place, {@code manifest.json} written (under a temporary name, then renamed), the marker
 *       removed. A crash at any point leaves either nothing and no charge, or a charge and no
 *       labels, or a charge and labels marked incomplete; never labels without a charge.
 * </ol>
 *
 * <p>What the guarantee does not cover, as in PATE: the set of label values (the classes are
 * taken from the training data and released as the output's vocabulary), the shard sizes that
 * DP-SGD divides its noisy sum by, and the refusal of a plan whose partition would be empty (an
 * error before anything runs). A pipeline that fails after the charge keeps the charge: the
 * training data was read.
 */
public final class LabelJob {

  /** The version written in manifests. */
  public static final String VERSION = "0.1.0";

  /** The marker present while labels are being moved into place. */
  public static final String INCOMPLETE = "_INCOMPLETE";

  /** The manifest's file name. */
  public static final String MANIFEST = "manifest.json";

  /** The label shards' name prefix in the work directory. */
  private static final String LABELS = "labels";

  /** At most this many distinct labels (classes). */
  public static final int MAX_CLASSES = 1000;

  private LabelJob() {}

  /**
   * What the user asked for.
   *
   * @param train the training CSV: a file, a directory of shards or a glob
   * @param queries the query CSV: a file, a directory of shards or a glob
   * @param out the output directory
   * @param budget (E, D) the run may spend in total
   * @param allowance DaRRM's m, or NaN for the default
   * @param seed reproducible run (no privacy) when present
   * @param overwrite whether an existing non-empty output directory may be written into
   */
  public record Request(String train, String queries, Path out, ApproxDp budget, int teachers,
      Aggregator aggregator, double allowance, LabelPrivacy.Training training, OptionalLong seed,
      boolean overwrite) {
    public Request {
      Require.nonNull("train", train);
      Require.nonNull("queries", queries);
      Require.nonNull("out", out);
      Require.nonNull("budget", budget);
      Require.positive("teachers", teachers);
      Require.nonNull("aggregator", aggregator);
      Require.nonNull("training", training);
      Require.nonNull("seed", seed);
    }
  }

  /**
   * Everything fixed before the run.
   *
   * @param labels the classes (the training data's label values), sorted
   * @param partitionSizes the records each teacher will train on (not released)
   * @param majority the private majority, its γ certified
   * @param spend what the run spends: the Q-fold composition of the guarantee the majority's
   *     certificate proves (DaRRM: (mε, δ) with δ raised by the verifier's tolerance where γ sits
   *     on the boundary)
   */
  public record Plan(Request request, CsvInput train, CsvSchema trainSchema, CsvInput queries,
      CsvSchema querySchema, long queryCount, long trainRows, List<String> labels,
      LabelPrivacy privacy, TeacherPartition partition, long[] partitionSizes,
      PrivateMajority majority, RunGuarantee spend) {

    /** Whether the run is seeded (reproducible, not private). */
    public boolean seeded() {
      return request.seed().isPresent();
    }
  }

  /** What a run's ledger entry is called. */
  static String chargeLabel(Request request, long queries) {
    return "tradeoff label: " + queries + " queries, " + request.aggregator().cliName() + ", K = "
        + request.teachers() + ", into " + request.out().toAbsolutePath();
  }

  /** Where and how the pipeline runs, and the command line, for the manifest. */
  public record RunInfo(PipelineOptions options, String runner, String master,
      List<String> commandLine) {
    public RunInfo {
      Require.nonNull("options", options);
      Require.nonNull("runner", runner);
      commandLine = List.copyOf(commandLine);
    }
  }

  /**
   * Checks everything and fixes every privacy parameter; trains nothing.
   *
   * @throws IllegalArgumentException for bad input (one line naming what is wrong)
   * @throws BudgetExceededException if the run would spend more than the budget
   */
  public static Plan plan(Request request) {
    Require.nonNull("request", request);
    checkOutput(request.out(), request.overwrite());
    CsvInput train = CsvInput.resolve("train", request.train());
    CsvSchema trainSchema = CsvSchema.training(train.header(), "train " + train.files().get(0).path());
    CsvInput queries = CsvInput.resolve("queries", request.queries());
    CsvSchema querySchema = CsvSchema.queries(queries.header(),
        queries.files().get(0).path(), trainSchema);
    long q = queries.scan(querySchema, (line, row) -> { });
    Require.that(q >= 1, "queries", "must hold at least one row", q);
    LabelPrivacy privacy = LabelPrivacy.derive(request.budget(), q, request.teachers(),
        request.aggregator(), request.allowance(), request.training());
    TeacherPartition partition = request.seed().isPresent()
        ? TeacherPartition.seeded(request.seed().getAsLong(), request.teachers())
        : TeacherPartition.secure(request.teachers());
    TreeSet<String> labels = new TreeSet<>();
    long[] sizes = new long[request.teachers()];
    long n = train.scan(trainSchema, (line, row) -> {
      if (labels.add(row.key()) && labels.size() > MAX_CLASSES) {
        throw new IllegalArgumentException("train: the label column must hold at most "
            + MAX_CLASSES + " distinct values, but holds more");
      }
      sizes[partition.of(line)]++;
    });
    Require.that(labels.size() >= 2, "train label column", "must hold at least two distinct "
        + "values", labels);
    if (request.aggregator().isDarrm() && labels.size() != 2) {
      throw new IllegalArgumentException("train label column must hold exactly two values for "
          + request.aggregator().cliName() + " (DaRRM aggregates binary votes; use gnmax for "
          + "more classes), but holds " + labels.size() + ": " + abbreviate(labels));
    }
    Require.that(request.teachers() <= n, "teachers", "must be at most the number of training "
        + "rows (" + n + ")", request.teachers());
    for (int k = 0; k < sizes.length; k++) {
      if (sizes[k] == 0) {
        throw new IllegalArgumentException("teachers must be few enough that each of the K "
            + "partitions receives a training row, but partition " + k + " of "
            + request.teachers() + " receives none (" + n + " rows); use fewer teachers");
      }
    }
    ElementRandomness randomness = request.seed().isPresent()
        ? ElementRandomness.seeded(request.seed().getAsLong()) : ElementRandomness.secure();
    List<String> classes = List.copyOf(labels);
    PrivateMajority majority = majority(privacy, (int) q, classes.size(), randomness);
    RunGuarantee spend = RunGuarantee.of(List.of(new Release("labels", majority.event())),
        request.budget().delta(), LabelPrivacy.methods(request.aggregator(), q));
    if (!spend.within(request.budget())) {
      throw new BudgetExceededException(chargeLabel(request, q), spend.total(),
          request.budget());
    }
    return new Plan(request, train, trainSchema, queries, querySchema, q, n, classes, privacy,
        partition, sizes, majority, spend);
  }

  private static String abbreviate(TreeSet<String> labels) {
    List<String> first = labels.stream().limit(5).toList();
    return labels.size() > 5 ? first + "..." : first.toString();
  }

  private static void checkOutput(Path out, boolean overwrite) {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new IllegalArgumentException("out must be a directory, but " + out
          + " is a file");
    }
    if (Files.isDirectory(out) && !overwrite) {
      try (Stream<Path> entries = Files.list(out)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("out must be a new or empty directory (or pass "
              + "--overwrite), but " + out + " is not empty");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Charges, runs and commits.
   *
   * @param ledger where the run's guarantee is charged (durably, before anything is written), or
   *     null for none; a seeded run must not be charged (it is not private)
   * @return the manifest as written to {@code manifest.json}
   * @throws BudgetExceededException if the ledger refuses the charge (nothing written, nothing
   *     charged)
   * @throws IllegalStateException if the pipeline fails (the charge stays: the data was read)
   */
  public static Map<String, Object> run(Plan plan, RunInfo info, BudgetStore ledger) {
    Request request = plan.request();
    Require.that(ledger == null || !plan.seeded(), "seed", "must not be given with a ledger: a "
        + "seeded run is not private and is not charged as such", request.seed());
    Instant started = Instant.now();
    Map<String, Object> ledgerEntry = null;
    if (ledger != null) {
      ApproxDp spend = plan.spend().total();
      LedgerEntry entry = ledger.charge(chargeLabel(request, plan.queryCount()), spend);
      ledgerEntry = new LinkedHashMap<>();
      ledgerEntry.put("id", entry.id());
      ledgerEntry.put("label", entry.label());
      ledgerEntry.put("charged", epsilonDelta(spend.epsilon(), spend.delta()));
      ledgerEntry.put("remaining", remaining(ledger.remaining()));
    }
    Path out = request.out().toAbsolutePath();
    String runId = UUID.randomUUID().toString();
    Path work = out.resolve(".tradeoff-" + runId);
    try {
      Files.createDirectories(work);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + work + " failed: " + e.getMessage(), e);
    }
    ElementRandomness randomness = request.seed().isPresent()
        ? ElementRandomness.seeded(request.seed().getAsLong()) : ElementRandomness.secure();
    Pipeline pipeline = Pipeline.create(info.options());
    PCollectionView<Map<Integer, TeacherModel>> models = pipeline.apply("Teachers",
        new LabelPipeline.Teachers(plan.train().files(), plan.partition(), plan.trainSchema(),
            plan.labels(), plan.privacy().dpSgd(), randomness));
    pipeline.apply("Label", new LabelShards(plan.queries().files(), plan.querySchema(),
        request.teachers(), models, plan.majority().perQuery(), plan.labels(),
        work.resolve(LABELS).toString(), ReadCsvLines.DEFAULT_RANGE_BYTES));
    try {
      PipelineResult result = pipeline.run();
      PipelineResult.State state = result.waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("the pipeline ended in state " + state);
      }
    } catch (RuntimeException e) {
      deleteQuietly(work);
      throw new IllegalStateException("the labelling pipeline failed (the budget stays charged: "
          + "the training data was read): " + rootMessage(e), e);
    }
    return commit(plan, info, ledgerEntry, work, out, started);
  }

  /** What the ledger has left as {@code {"epsilon"[, "delta"]}}, or its description if neither. */
  private static Object remaining(PrivacyGuarantee left) {
    if (left instanceof ApproxDp approx) {
      return epsilonDelta(approx.epsilon(), approx.delta());
    }
    if (left instanceof PureDp pure) {
      return epsilonDelta(pure.epsilon(), 0);
    }
    return String.valueOf(left);
  }

  private static Map<String, Object> epsilonDelta(double epsilon, double delta) {
    Map<String, Object> pair = new LinkedHashMap<>();
    pair.put("epsilon", epsilon);
    pair.put("delta", delta);
    return pair;
  }

  private static PrivateMajority majority(LabelPrivacy privacy, int q, int classes,
      ElementRandomness randomness) {
    if (!privacy.aggregator().isDarrm()) {
      return PrivateMajority.gnmax(privacy.gnmax(), classes, q, randomness);
    }
    PrivacyVerifier verifier = new PrivacyVerifier(privacy.setting());
    NoiseFunction gamma = privacy.aggregator() == Aggregator.DARRM_SUB
        ? Baseline.SUBSAMPLING.certified(verifier).gamma()
        : new GammaOptimizer(privacy.setting()).optimize(new Objective.Surrogate(0.75)).gamma();
    return PrivateMajority.darrm(privacy.setting(), gamma, q, randomness);
  }

  /**
   * The completed shards, checked against the plan: exactly the planned (and charged) number of
   * labels, or the run fails with nothing committed.
   */
  private static List<LabelShards.CompletedShard> checkedShards(Plan plan, Path work)
      throws IOException {
    List<LabelShards.CompletedShard> shards = LabelShards.completedShards(
        work.resolve(LABELS).toString());
    long labelled = shards.stream().mapToLong(LabelShards.CompletedShard::labels).sum();
    if (labelled != plan.queryCount()) {
      deleteQuietly(work);
      throw new IllegalStateException("the labelling pipeline produced " + labelled + " labels "
          + "where " + plan.queryCount() + " were planned and charged; nothing was committed");
    }
    return shards;
  }

  private static Map<String, Object> commit(Plan plan, RunInfo info,
      Map<String, Object> ledgerEntry, Path work, Path out, Instant started) {
    List<LabelShards.CompletedShard> shards;
    try {
      shards = checkedShards(plan, work);
    } catch (IOException e) {
      deleteQuietly(work);
      throw new UncheckedIOException("reading the list of label shards under " + work
          + " failed (nothing was committed): " + e.getMessage(), e);
    }
    try {
      Files.writeString(out.resolve(INCOMPLETE), "labels are being moved into place by run "
          + work.getFileName() + "\n", StandardCharsets.UTF_8);
      // --overwrite: an earlier run's labels and manifest go first (the marker is already there)
      Files.deleteIfExists(out.resolve(MANIFEST));
      try (Stream<Path> earlier = Files.list(out)) {
        for (Path f : earlier.filter(f -> f.getFileName().toString().startsWith("labels-"))
            .toList()) {
          Files.delete(f);
        }
      }
      List<ResourceId> from = new ArrayList<>();
      List<ResourceId> to = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < shards.size(); i++) {
        String name = String.format(java.util.Locale.ROOT, "labels-%05d-of-%05d.csv", i,
            shards.size());
        from.add(FileSystems.matchNewResource(shards.get(i).path(), false));
        names.add(name);
        to.add(FileSystems.matchNewResource(out.resolve(name).toString(), false));
      }
      FileSystems.rename(from, to, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
      Map<String, Object> manifest = manifest(plan, info, ledgerEntry, started, names);
      Path pending = work.resolve(MANIFEST);
      writeJson(pending, manifest);
      Files.move(pending, out.resolve(MANIFEST), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.delete(out.resolve(INCOMPLETE));
      deleteQuietly(work);
      return manifest;
    } catch (IOException e) {
      throw new UncheckedIOException("committing the labels to " + out + " failed (they stay "
          + "marked " + INCOMPLETE + "): " + e.getMessage(), e);
    }
  }

  private static Map<String, Object> manifest(Plan plan, RunInfo info,
      Map<String, Object> ledgerEntry, Instant started, List<String> files) {
    Request r = plan.request();
    LabelPrivacy p = plan.privacy();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("version", VERSION);
    m.put("commandLine", info.commandLine());
    m.put("runner", info.runner());
    m.put("master", info.master());
    m.put("seeded", plan.seeded());
    m.put("private", !plan.seeded());
    Map<String, Object> guarantee = new LinkedHashMap<>();
    guarantee.put("epsilon", plan.spend().total().epsilon());
    guarantee.put("delta", plan.spend().total().delta());
    guarantee.put("accountant", plan.spend().method().cliName());
    guarantee.put("holds", plan.seeded() ? "no: a seeded run's noise is determined by its seed"
        : "yes, against any one training record added or removed");
    m.put("guarantee", guarantee);
    m.put("budget", epsilonDelta(r.budget().epsilon(), r.budget().delta()));
    Map<String, Object> derivation = new LinkedHashMap<>();
    derivation.put("aggregator", p.aggregator().cliName());
    derivation.put("perLabel", epsilonDelta(p.perLabel().epsilon(), p.perLabel().delta()));
    if (p.setting() != null) {
      derivation.put("m", p.setting().allowance());
      derivation.put("teacher", epsilonDelta(p.setting().epsilon(), p.setting().teacherDelta()));
      Map<String, Object> dpSgd = new LinkedHashMap<>();
      dpSgd.put("noiseMultiplier", p.dpSgd().noiseMultiplier());
      dpSgd.put("clip", p.dpSgd().clipNorm());
      dpSgd.put("samplingRate", p.dpSgd().samplingRate());
      dpSgd.put("steps", p.dpSgd().steps());
      dpSgd.put("learningRate", p.dpSgd().learningRate());
      derivation.put("dpSgd", dpSgd);
    } else {
      derivation.put("gnmaxSigma", p.gnmax().sigma());
    }
    derivation.put("steps", p.derivation());
    m.put("derivation", derivation);
    m.put("ledger", ledgerEntry);
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("trainRows", plan.trainRows());
    counts.put("queries", plan.queryCount());
    counts.put("labelled", plan.queryCount());
    counts.put("teachers", r.teachers());
    counts.put("classes", plan.labels().size());
    m.put("counts", counts);
    m.put("labels", plan.labels());
    m.put("files", files);
    m.put("started", started.toString());
    m.put("finished", Instant.now().toString());
    return m;
  }

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /** The manifest as JSON text. */
  public static String json(Map<String, Object> manifest) {
    try {
      return JSON.writeValueAsString(manifest);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeJson(Path file, Map<String, Object> manifest) throws IOException {
    try (OutputStream o = Channels.newOutputStream(FileSystems.create(
        FileSystems.matchNewResource(file.toString(), false), "application/json"))) {
      o.write((json(manifest) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: a leftover hidden work directory holds no released output
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
