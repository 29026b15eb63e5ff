package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.beam.budget.BudgetedRun;
import dev.tradeoff.beam.budget.RunOutput;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.learning.features.FeatureMap;
import dev.tradeoff.learning.features.PublicStatistics;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Private labels for a user's unlabelled data from K private teachers trained on their sensitive
 * data (PATE-style knowledge transfer), as one Beam pipeline that runs on any runner.
 *
 * <ol>
 *   <li>{@link #plan}: pins the inputs (the exact files and their sizes, {@link CsvInput}), reads
 *       the headers, counts the public queries and takes the feature map's statistics from them,
 *       and fixes every privacy parameter from (E, D) and Q ({@link LabelPrivacy}). The training
 *       rows are not read. Bad input is an {@link IllegalArgumentException}, a spend over the
 *       budget a {@link BudgetExceededException}.
 *   <li>{@link #run}: charges the run's guarantee to the caller's {@link BudgetStore} (before
 *       anything is written), then runs the pipeline: the pinned training bytes to K partitions
 *       by a keyed hash, one teacher per partition ({@link LabelPipeline.Teachers}), the models
 *       as a side input; then the pinned query bytes in ranges, each read, voted, labelled and
 *       written in one step ({@link LabelShards}) into a hidden directory of the output; then
 *       {@link BudgetedRun} checks that exactly the planned number of labels was produced and
 *       commits them. A crash at any point leaves either nothing and no charge, or a charge and
 *       no labels, or a charge and labels marked incomplete; never labels without a charge, and
 *       never more labels than were charged for.
 * </ol>
 *
 * <p>The guarantee holds against any one training record added or removed (and, doubled by group
 * privacy, replaced), with no exception: the classes are public input ({@link ClassSet}); DP-SGD
 * divides by a noisy partition size whose cost is in the teacher's event, never by the true one;
 * an empty partition trains on no rows; a training row the teachers cannot read, or whose label
 * is not a class, is skipped (never refused, which would reveal it); the feature map's
 * statistics come from the public queries or the user; and the manifest publishes no count of
 * training rows. A pipeline that fails after the charge keeps the charge: the training data was
 * read.
 */
public final class LabelJob {

  private LabelJob() {}

  /**
   * How raw columns become features: user ranges (clip to [low, high], mapped to [−1, 1]),
   * columns forced to be hashed, the hash buckets per string column and the clip of standardised
   * values. Every other numeric column is standardised with the public query set's mean and
   * standard deviation.
   */
  public record FeatureOptions(Map<String, FeatureMap.Range> ranges, Set<String> categorical,
      int hashBuckets, double clip) {
    /** No ranges, nothing forced, 16 buckets, values clipped to ±4 standard deviations. */
    public static final FeatureOptions DEFAULT = new FeatureOptions(Map.of(), Set.of(), 16, 4);

    public FeatureOptions {
      ranges = Map.copyOf(ranges);
      categorical = Set.copyOf(categorical);
      Require.inClosedRange("hash-buckets", hashBuckets, 1, 1 << 16);
      Require.that(clip >= 1e-3 && clip <= 1e6, "feature-clip", "must be in [1e-3, 1e6] (a bound "
          + "on standardised values)", clip);
      for (String name : categorical) {
        Require.that(!ranges.containsKey(name), "categorical", "must not name a column that "
            + "has a --range", name);
      }
    }
  }

  /**
   * What the user asked for; each value checked once, here or in the record that holds it.
   *
   * @param train the training CSV: a file, a directory of shards or a glob
   * @param queries the query CSV: a file, a directory of shards or a glob
   * @param out the output directory
   * @param privacy the budget (E, D), aggregator, K, DaRRM's m and the teachers' DP-SGD
   * @param classes the classes (public input)
   * @param columns which column is the label, the id, the features
   * @param features how the features are mapped
   * @param seed reproducible run (no privacy) when present
   * @param overwrite whether an existing non-empty output directory may be written into
   */
  public record Request(String train, String queries, Path out, LabelPrivacy.Target privacy,
      ClassSet classes, CsvSchema.Columns columns, FeatureOptions features, OptionalLong seed,
      boolean overwrite) {

    public Request {
      Require.nonNull("train", train);
      Require.nonNull("queries", queries);
      Require.nonNull("out", out);
      Require.nonNull("privacy", privacy);
      Require.nonNull("classes", classes);
      Require.nonNull("columns", columns);
      Require.nonNull("features", features);
      Require.nonNull("seed", seed);
      if (privacy.aggregator().isDarrm()) {
        Require.that(classes.size() == 2, "classes", "must be exactly two for "
            + privacy.aggregator().cliName() + " (DaRRM aggregates binary votes; use dp-majority "
            + "or gnmax for more)", classes.names());
      }
    }

    /** (E, D). */
    public ApproxDp budget() {
      return privacy.budget();
    }

    /** The aggregator. */
    public Aggregator aggregator() {
      return privacy.aggregator();
    }

    /** K. */
    public int teachers() {
      return privacy.teachers();
    }
  }

  /**
   * Everything fixed before the run.
   *
   * @param queryCount Q, the rows of the pinned query bytes
   * @param queryRanges the record ranges the pipeline reads the queries in, cut by the plan's scan
   * @param featurizer the feature map, its parameters from the queries and the user
   * @param privacy every privacy parameter and bound; its least bound is what is charged
   * @param majority the label of a query from its votes
   * @param unanimous the probability that a query all K teachers vote for gets their class as
   *     its label (1 without per-label noise; a lower bound for GNMax)
   */
  public record Plan(Request request, CsvInput train, CsvSchema trainSchema, CsvInput queries,
      CsvSchema querySchema, long queryCount, List<ReadCsvLines.RecordRange> queryRanges,
      Featurizer.Table featurizer, LabelPrivacy privacy, TeacherPartition partition,
      PrivateMajority.QueryMajority majority, double unanimous) {

    public Plan {
      queryRanges = List.copyOf(queryRanges);
    }

    /** Whether the run is seeded (reproducible, not private). */
    public boolean seeded() {
      return request.seed().isPresent();
    }

    /** What the run spends: the least valid bound. */
    public ApproxDp spend() {
      return privacy.total();
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
   * Checks everything and fixes every privacy parameter; reads the headers and the public
   * queries, never a training row; trains nothing.
   *
   * @throws IllegalArgumentException for bad input (one line naming what is wrong)
   * @throws BudgetExceededException if the run would spend more than the budget
   */
  public static Plan plan(Request request) {
    Require.nonNull("request", request);
    RunOutput.check(request.out(), request.overwrite());
    CsvInput train = CsvInput.resolve("train", request.train());
    CsvSchema trainSchema = CsvSchema.training(train.header(), request.columns(),
        "train " + train.files().get(0).path());
    CsvInput queries = CsvInput.resolve("queries", request.queries());
    CsvSchema querySchema = CsvSchema.queries(queries.header(), request.columns(), trainSchema,
        "queries " + queries.files().get(0).path());
    PublicStatistics stats = new PublicStatistics(trainSchema.dimension());
    CsvInput.Scan scan = queries.scan(querySchema, ReadCsvLines.DEFAULT_RANGE_BYTES,
        row -> stats.add(row.features()));
    long q = scan.rows();
    Require.that(q >= 1, "queries", "must hold at least one row", q);
    Featurizer.Table featurizer = features(request.features(), trainSchema, stats);
    LabelPrivacy privacy = LabelPrivacy.derive(request.privacy(), q);
    if (!privacy.run().guarantee().within(request.budget())) {
      throw new BudgetExceededException(chargeLabel(request, q), privacy.total(),
          request.budget());
    }
    TeacherPartition partition = request.seed().isPresent()
        ? TeacherPartition.seeded(request.seed().getAsLong(), request.teachers())
        : TeacherPartition.secure(request.teachers());
    ElementRandomness randomness = randomness(request);
    int classes = request.classes().size();
    return switch (privacy.aggregator()) {
      case DP_MAJORITY -> new Plan(request, train, trainSchema, queries, querySchema, q,
          scan.ranges(), featurizer, privacy, partition, new Plurality(classes), 1);
      case GNMAX -> {
        // all K votes on one class: each other class's noisy count exceeds it with probability
        // Φ(−K/(σ√2)); a union bound over the C − 1 others
        double miss = (classes - 1) * StandardNormal.cdf(-request.teachers()
            / (privacy.gnmax().sigma() * Math.sqrt(2)));
        yield new Plan(request, train, trainSchema, queries, querySchema, q,
            scan.ranges(), featurizer,
            privacy, partition, PrivateMajority.gnmax(privacy.gnmax(), classes, (int) q,
                randomness).perQuery(), Math.max(0, 1 - miss));
      }
      case DARRM_OPT, DARRM_SUB -> {
        PrivacyVerifier verifier = new PrivacyVerifier(privacy.setting());
        NoiseFunction gamma = privacy.aggregator() == Aggregator.DARRM_SUB
            ? Baseline.SUBSAMPLING.certified(verifier).gamma()
            : new GammaOptimizer(privacy.setting()).optimize(new Objective.Surrogate(0.75))
                .gamma();
        // [DaRRM24, Algorithm 1]: the majority with probability γ(K), else a fair coin
        double g = gamma.at(request.teachers());
        yield new Plan(request, train, trainSchema, queries, querySchema, q,
            scan.ranges(), featurizer,
            privacy, partition, PrivateMajority.darrm(privacy.setting(), gamma, (int) q,
                randomness).perQuery(), g + (1 - g) / 2);
      }
    };
  }

  /**
   * The feature map: the public statistics of the queries' feature cells, user ranges and forced
   * categorical columns.
   */
  private static Featurizer.Table features(FeatureOptions options, CsvSchema trainSchema,
      PublicStatistics stats) {
    List<String> names = trainSchema.featureNames();
    for (String name : options.ranges().keySet()) {
      Require.that(names.contains(name), "range", "must name a feature column " + names, name);
    }
    for (String name : options.categorical()) {
      Require.that(names.contains(name), "categorical", "must name a feature column " + names,
          name);
    }
    return new Featurizer.Table(FeatureMap.fromPublic(stats, names,
        IntStream.range(0, names.size()).toArray(), options.ranges(), options.categorical(),
        options.hashBuckets(), options.clip()));
  }

  private static ElementRandomness randomness(Request request) {
    return request.seed().isPresent()
        ? ElementRandomness.seeded(request.seed().getAsLong()) : ElementRandomness.secure();
  }

  /** The output holding the labels: {@code labels-00000-of-0000N.csv}. */
  static final String LABELS = "labels";

  /**
   * Charges, runs and commits, through the one budgeted-run path ({@link BudgetedRun}).
   *
   * @param ledger where the run's guarantee is charged (durably, before anything is written), or
   *     null for none; a seeded run must not be charged (it is not private)
   * @return the manifest as written to {@code manifest.json}
   * @throws BudgetExceededException if the ledger refuses the charge (nothing written, nothing
   *     charged)
   * @throws IllegalStateException if the pipeline fails or labels other than the planned number
   *     of queries (the charge stays: the data was read; nothing is committed)
   */
  public static LabelManifest run(Plan plan, RunInfo info, BudgetStore ledger) {
    Request request = plan.request();
    Require.that(ledger == null || !plan.seeded(), "seed", "must not be given with a ledger: a "
        + "seeded run is not private and is not charged as such", request.seed());
    Instant started = Instant.now();
    return BudgetedRun.run(new BudgetedRun.Job<>() {
      @Override
      public BudgetedRun.Spend spend() {
        // the charged bound's event travels with its (ε, δ), so a ledger can admit the run by a
        // filter tighter than basic composition
        return new BudgetedRun.Spend(chargeLabel(request, plan.queryCount()), new Charge(
            RunGuarantee.composed(plan.privacy().run().guarantee().releases()), plan.spend()));
      }

      @Override
      public Pipeline build(RunOutput output) {
        ElementRandomness randomness = randomness(request);
        Pipeline pipeline = Pipeline.create(info.options());
        PCollectionView<Map<Integer, TeacherModel>> models = pipeline.apply("Teachers",
            new LabelPipeline.Teachers(plan.train().files(), plan.partition(),
                plan.trainSchema(), request.classes(), plan.featurizer(),
                plan.privacy().trainer(), randomness));
        pipeline.apply("Label", new LabelShards(plan.queryRanges(), plan.querySchema(),
            request.teachers(), models, plan.featurizer(), plan.majority(),
            request.classes().names(), output.prefix(LABELS)));
        return pipeline;
      }

      @Override
      public Map<String, Long> planned() {
        return Map.of(LABELS, plan.queryCount());
      }

      @Override
      public LabelManifest manifest(Optional<BudgetedRun.Receipt> receipt,
          Map<String, List<String>> files) {
        LabelManifest.Ledger charged = receipt.map(r -> new LabelManifest.Ledger(r.entry().id(),
            r.entry().label(), LabelManifest.EpsilonDelta.of(plan.spend()),
            remaining(r.remaining()))).orElse(null);
        return LabelManifest.of(plan, info, charged, started, files.get(LABELS));
      }
    }, ledger, RunOutput.start(request.out()));
  }

  /** What the ledger has left as (ε, δ), or its description if it is of another kind. */
  private static Object remaining(PrivacyGuarantee left) {
    if (left instanceof ApproxDp approx) {
      return LabelManifest.EpsilonDelta.of(approx);
    }
    if (left instanceof PureDp pure) {
      return new LabelManifest.EpsilonDelta(pure.epsilon(), 0);
    }
    return String.valueOf(left);
  }
}
