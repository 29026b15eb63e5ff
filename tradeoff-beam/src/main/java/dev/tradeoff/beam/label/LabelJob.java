package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
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
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
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
 *       {@link LabelCommit} checks that exactly the planned number of labels was produced and
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
      Require.inClosedRange("hash buckets", hashBuckets, 1, 1 << 16);
      Require.that(clip > 0 && clip <= 1e6, "clip", "must be in (0, 1e6]", clip);
      for (String name : categorical) {
        Require.that(!ranges.containsKey(name), "categorical", "must not name a column that "
            + "has a --range", name);
      }
    }
  }

  /**
   * What the user asked for; checked here, once.
   *
   * @param train the training CSV: a file, a directory of shards or a glob
   * @param queries the query CSV: a file, a directory of shards or a glob
   * @param out the output directory
   * @param budget (E, D) the run may spend in total
   * @param aggregator the aggregator
   * @param teachers K
   * @param classes the classes (public input)
   * @param columns which column is the label, the id, the features
   * @param features how the features are mapped
   * @param allowance DaRRM's m, or NaN for the default
   * @param training the teachers' DP-SGD
   * @param seed reproducible run (no privacy) when present
   * @param overwrite whether an existing non-empty output directory may be written into
   */
  public record Request(String train, String queries, Path out, ApproxDp budget,
      Aggregator aggregator, int teachers, ClassSet classes, CsvSchema.Columns columns,
      FeatureOptions features, double allowance, LabelPrivacy.Training training,
      OptionalLong seed, boolean overwrite) {
    /** Most teachers a run may have. */
    public static final int MAX_TEACHERS = 10_001;

    public Request {
      Require.nonNull("train", train);
      Require.nonNull("queries", queries);
      Require.nonNull("out", out);
      Require.nonNull("budget", budget);
      Require.that(budget.epsilon() >= 1e-6 && budget.epsilon() <= 100, "epsilon",
          "must be in [1e-6, 100]", budget.epsilon());
      Require.that(budget.delta() > 0 && budget.delta() < 1, "delta", "must be in (0, 1)",
          budget.delta());
      Require.nonNull("aggregator", aggregator);
      Require.inClosedRange("teachers", teachers, 1, MAX_TEACHERS);
      Require.nonNull("classes", classes);
      Require.nonNull("columns", columns);
      Require.nonNull("features", features);
      Require.nonNull("training", training);
      Require.nonNull("seed", seed);
      if (aggregator.isDarrm()) {
        Require.that(classes.size() == 2, "classes", "must be exactly two for "
            + aggregator.cliName() + " (DaRRM aggregates binary votes; use dp-majority or gnmax "
            + "for more)", classes.names());
        Require.that(teachers % 2 == 1, "teachers", "must be odd for DaRRM (its majority has no "
            + "ties)", teachers);
        if (!Double.isNaN(allowance)) {
          Require.inClosedRange("m", allowance, 1, teachers);
        }
      } else {
        Require.that(Double.isNaN(allowance), "m", "applies to DaRRM only, not to "
            + aggregator.cliName(), allowance);
      }
    }
  }

  /**
   * Everything fixed before the run.
   *
   * @param queryCount Q, the rows of the pinned query bytes
   * @param featurizer the feature map, its parameters from the queries and the user
   * @param privacy every privacy parameter and bound; its least bound is what is charged
   * @param majority the label of a query from its votes
   * @param unanimous the probability that a query all K teachers vote for gets their class as
   *     its label (1 without per-label noise; a lower bound for GNMax)
   */
  public record Plan(Request request, CsvInput train, CsvSchema trainSchema, CsvInput queries,
      CsvSchema querySchema, long queryCount, Featurizer.Table featurizer, LabelPrivacy privacy,
      TeacherPartition partition, PrivateMajority.QueryMajority majority, double unanimous) {

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
    LabelCommit.checkOutput(request.out(), request.overwrite());
    CsvInput train = CsvInput.resolve("train", request.train());
    CsvSchema trainSchema = CsvSchema.training(train.header(), request.columns(),
        "train " + train.files().get(0).path());
    CsvInput queries = CsvInput.resolve("queries", request.queries());
    CsvSchema querySchema = CsvSchema.queries(queries.header(), request.columns(), trainSchema,
        "queries " + queries.files().get(0).path());
    PublicStatistics stats = new PublicStatistics(trainSchema.dimension());
    long q = queries.scan(querySchema, (line, row) -> stats.add(row.features()));
    Require.that(q >= 1, "queries", "must hold at least one row", q);
    Featurizer.Table featurizer = features(request.features(), trainSchema, stats);
    LabelPrivacy privacy = LabelPrivacy.derive(request.budget(), q, request.teachers(),
        request.aggregator(), request.allowance(), request.training());
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
          featurizer, privacy, partition, new Plurality(classes), 1);
      case GNMAX -> {
        // all K votes on one class: each other class's noisy count exceeds it with probability
        // Φ(−K/(σ√2)); a union bound over the C − 1 others
        double miss = (classes - 1) * StandardNormal.cdf(-request.teachers()
            / (privacy.gnmax().sigma() * Math.sqrt(2)));
        yield new Plan(request, train, trainSchema, queries, querySchema, q, featurizer,
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
        yield new Plan(request, train, trainSchema, queries, querySchema, q, featurizer,
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

  /**
   * Charges, runs and commits.
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
    LabelManifest.Ledger ledgerEntry = null;
    if (ledger != null) {
      ApproxDp spend = plan.spend();
      // the charged bound's event travels with its (ε, δ), so a ledger can admit the run by a
      // filter tighter than basic composition
      LedgerEntry entry = ledger.charge(chargeLabel(request, plan.queryCount()), new Charge(
          RunGuarantee.composed(plan.privacy().run().guarantee().releases()), spend));
      ledgerEntry = new LabelManifest.Ledger(entry.id(), entry.label(),
          LabelManifest.EpsilonDelta.of(spend), remaining(ledger.remaining()));
    }
    LabelCommit commit = LabelCommit.start(request.out());
    ElementRandomness randomness = randomness(request);
    Pipeline pipeline = Pipeline.create(info.options());
    PCollectionView<Map<Integer, TeacherModel>> models = pipeline.apply("Teachers",
        new LabelPipeline.Teachers(plan.train().files(), plan.partition(), plan.trainSchema(),
            request.classes(), plan.featurizer(), plan.privacy().trainer(), randomness));
    pipeline.apply("Label", new LabelShards(plan.queries().files(), plan.querySchema(),
        request.teachers(), models, plan.featurizer(), plan.majority(),
        request.classes().names(), commit.shardPrefix(), ReadCsvLines.DEFAULT_RANGE_BYTES));
    try {
      PipelineResult.State state = pipeline.run().waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("the pipeline ended in state " + state);
      }
    } catch (RuntimeException e) {
      commit.abandon();
      throw new IllegalStateException("the labelling pipeline failed (the budget stays charged: "
          + "the training data was read): " + rootMessage(e), e);
    }
    LabelManifest.Ledger charged = ledgerEntry;
    return commit.commit(plan.queryCount(), files -> LabelManifest.of(plan, info, charged,
        started, files));
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

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
