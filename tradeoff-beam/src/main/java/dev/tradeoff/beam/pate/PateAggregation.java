package dev.tradeoff.beam.pate;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.PrivateTransform;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.ensemble.pate.Answer;
import dev.tradeoff.ensemble.pate.GnssRelease;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.pate.SmoothSensitivity;
import dev.tradeoff.ensemble.pate.Votes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * PATE aggregation (Papernot et al., <i>Scalable private learning with PATE</i>, ICLR 2018) over a
 * collection of (query id, vote histogram) pairs: the {@link PateAggregator} of each query's
 * votes, and, when asked, the private release of the run's data-dependent RDP by smooth
 * sensitivity ({@link GnssRelease}). The same labels and the same release as the in-memory {@link
 * PateRun#allQueries(dev.tradeoff.ensemble.pate.VoteTable, PateAggregator, double,
 * PateRun.QueryNoise)} with {@link #queryNoise} and {@link GnssRelease#release(GnssRelease.Share,
 * DpEvent, double, RandomGenerator)} with {@link #releaseNoise}, on every runner.
 *
 * <p>Privacy. The number Q of queries, the classes C and the teachers K are declared up front
 * (public), so the charge is known before anything runs: Q threshold checks and Q GNMax steps
 * ({@link PateRun#exAnteEvent}), and with a release its data-independent cost at λ ({@link
 * GnssRelease#cost()}, Theorem 23). Each query id is released at most once: the votes are grouped
 * by id, and an id with two vote rows, or more than Q rows in all, fails the pipeline before any
 * label of it is written. Interactive-GNMax's student predictions (public: a model trained on
 * public data and labels already released) are joined by id; a query without one fails the
 * pipeline, a prediction without votes is ignored.
 *
 * <p>Outputs: {@link #ANSWERS}, one (id, {@link Answer}) per query; with a release, {@link
 * #RELEASE}, one {@link GnssRelease.Released}. The release adds the queries' {@link
 * GnssRelease.Share shares} with a combiner: the shares are integers on a fixed grid, so their sum
 * does not depend on how a runner groups them. The data-dependent ε it reports is an estimate at
 * these votes, not a worst case (see {@link GnssRelease}); a ledger is reserved at the worst case
 * before the run and settled after, as {@code tradeoff aggregate --charge data-dependent} does.
 */
public final class PateAggregation
    extends PrivateTransform<PCollection<KV<String, int[]>>, PCollectionTuple> {

  private static final long serialVersionUID = 1L;

  /** The stream of the queries' noise in {@link ElementRandomness}. */
  public static final String STREAM = "pate-aggregate";

  /** The stream and key of the release's one noise draw. */
  public static final String RELEASE_STREAM = "pate-gnss";

  private static final String RELEASE_KEY = "release";

  /** One (id, answer) per query. */
  public static final TupleTag<KV<String, Answer>> ANSWERS = new TupleTag<>("answers") {};

  /** The released data-dependent RDP (with a release only). */
  public static final TupleTag<GnssRelease.Released> RELEASE = new TupleTag<>("release") {};

  private static final TupleTag<GnssRelease.Share> SHARES = new TupleTag<>("shares") {};
  private static final TupleTag<int[]> VOTES = new TupleTag<>("votes") {};
  private static final TupleTag<double[]> STUDENT = new TupleTag<>("student") {};

  private final PateAggregator aggregator;
  private final Declared declared;
  private final ElementRandomness randomness;
  private final GnssRelease release;
  private final double delta;
  private final transient PCollection<KV<String, double[]>> student;

  private PateAggregation(PateAggregator aggregator, Declared declared,
      ElementRandomness randomness, GnssRelease release, double delta,
      PCollection<KV<String, double[]>> student) {
    this.aggregator = aggregator;
    this.declared = declared;
    this.randomness = randomness;
    this.release = release;
    this.delta = delta;
    this.student = student;
  }

  /**
   * The public shape of the votes, declared before the pipeline runs.
   *
   * @param queries Q ≥ 1, the most queries the collection may hold
   * @param classes C ≥ 2, the length of every histogram
   * @param teachers K ≥ 1, the sum of every histogram
   */
  public record Declared(int queries, int classes, int teachers)
      implements java.io.Serializable {
    public Declared {
      Require.positive("queries", queries);
      Require.that(classes >= 2, "classes", "must be >= 2", classes);
      Require.positive("teachers", teachers);
    }
  }

  /**
   * GNMax or Confident-GNMax on every query.
   *
   * @throws IllegalArgumentException for Interactive-GNMax (use {@link #interactiveGnmax})
   */
  public static PateAggregation of(PateAggregator aggregator, Declared declared,
      ElementRandomness randomness) {
    Require.nonNull("aggregator", aggregator);
    Require.that(!(aggregator instanceof PateAggregator.InteractiveGnmax), "aggregator",
        "must be gnmax or confident-gnmax here; interactive-gnmax takes the student's "
            + "collection (interactiveGnmax)", "interactive-gnmax");
    return new PateAggregation(aggregator, Require.nonNull("declared", declared),
        Require.nonNull("randomness", randomness), null, Double.NaN, null);
  }

  /**
   * Interactive-GNMax (Algorithm 2) with the student's class probabilities per query id joined
   * from {@code student} (C entries summing to 1 within 1e-6).
   */
  public static PateAggregation interactiveGnmax(double threshold, double sigma1, double sigma2,
      double studentConfidence, PCollection<KV<String, double[]>> student, Declared declared,
      ElementRandomness randomness) {
    Require.nonNull("student", student);
    return new PateAggregation(PateAggregator.InteractiveGnmax.withPredictionsPerQuery(threshold,
        sigma1, sigma2, studentConfidence), Require.nonNull("declared", declared),
        Require.nonNull("randomness", randomness), null, Double.NaN, student);
  }

  /**
   * The same aggregation that also releases the run's data-dependent RDP at {@code gnss}'s order
   * by smooth sensitivity, its ε at {@code delta}.
   *
   * @throws IllegalArgumentException for Interactive-GNMax, or when σ₂, C and λ fail conditions
   *     C5–C6 (checked here, before anything runs)
   */
  public PateAggregation withRelease(GnssRelease gnss, double delta) {
    Require.nonNull("gnss", gnss);
    Require.openUnit("delta", delta);
    gnss.requireConditions(aggregator, declared.classes());
    return new PateAggregation(aggregator, declared, randomness, gnss, delta, student);
  }

  /** The noise of each query in the in-memory run that gives this transform's labels. */
  public static PateRun.QueryNoise queryNoise(ElementRandomness randomness) {
    Require.nonNull("randomness", randomness);
    return id -> randomness.forElement(STREAM, id);
  }

  /** The noise of the release in the in-memory run that gives this transform's release. */
  public static RandomGenerator releaseNoise(ElementRandomness randomness) {
    return Require.nonNull("randomness", randomness).forElement(RELEASE_STREAM, RELEASE_KEY);
  }

  /** The aggregator applied to every query. */
  public PateAggregator aggregator() {
    return aggregator;
  }

  /** The release, when one was asked for. */
  public Optional<GnssRelease> release() {
    return Optional.ofNullable(release);
  }

  /** The data-independent event of the labels: Q checks and Q GNMax steps. */
  public DpEvent labelsEvent() {
    return PateRun.exAnteEvent(aggregator, declared.queries());
  }

  /** The labels' event, composed with the release's own (λ, cost)-RDP when there is one. */
  @Override
  public DpEvent event() {
    return release == null ? labelsEvent() : ComposedEvent.of(labelsEvent(),
        new GuaranteeEvent(RenyiDp.ofOrder(release.order(), release.cost())));
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, int[]>> votes) {
    KeyedPCollectionTuple<String> keyed = KeyedPCollectionTuple.of(VOTES, votes);
    if (student != null) {
      keyed = keyed.and(STUDENT, student);
    }
    PCollection<KV<String, CoGbkResult>> grouped = keyed.apply("Group by id",
        CoGroupByKey.create());
    PCollectionView<Long> rows = votes.apply("Count rows", Count.globally())
        .apply("Rows", View.asSingleton());
    PCollectionTuple out = grouped.apply("Answer", ParDo.of(new AnswerFn(aggregator, declared,
            randomness, release, student != null, rows))
        .withSideInputs(rows).withOutputTags(ANSWERS, TupleTagList.of(SHARES)));
    PCollection<KV<String, Answer>> answers = out.get(ANSWERS)
        .setCoder(KvCoder.of(StringUtf8Coder.of(), AnswerCoder.of()));
    PCollection<GnssRelease.Share> shares = out.get(SHARES)
        .setCoder(SerializableCoder.of(GnssRelease.Share.class));
    if (release == null) {
      return PCollectionTuple.of(ANSWERS, answers);
    }
    PCollection<GnssRelease.Released> released = shares
        .apply("Sum shares", Combine.globally(new SumShares(declared.teachers())))
        .setCoder(SerializableCoder.of(GnssRelease.Share.class))
        .apply("Release", ParDo.of(new ReleaseFn(aggregator, declared, release, delta,
            randomness)))
        .setCoder(SerializableCoder.of(GnssRelease.Released.class));
    return PCollectionTuple.of(ANSWERS, answers).and(RELEASE, released);
  }

  private static final class AnswerFn extends DoFn<KV<String, CoGbkResult>, KV<String, Answer>> {
    private static final long serialVersionUID = 1L;
    private final PateAggregator aggregator;
    private final Declared declared;
    private final ElementRandomness randomness;
    private final GnssRelease release;
    private final boolean joined;
    private final PCollectionView<Long> rows;
    private transient SmoothSensitivity.Gnmax gnmax;

    AnswerFn(PateAggregator aggregator, Declared declared, ElementRandomness randomness,
        GnssRelease release, boolean joined, PCollectionView<Long> rows) {
      this.aggregator = aggregator;
      this.declared = declared;
      this.randomness = randomness;
      this.release = release;
      this.joined = joined;
      this.rows = rows;
    }

    @Setup
    public void setup() {
      if (release != null) {
        // the conditions were checked when the release was configured
        gnmax = new SmoothSensitivity.Gnmax(aggregator.sigma2(), release.order(),
            declared.classes());
      }
    }

    @ProcessElement
    public void process(ProcessContext c) {
      long total = c.sideInput(rows);
      if (total > declared.queries()) {
        throw new IllegalArgumentException("the votes must hold at most the declared "
            + declared.queries() + " queries, but held " + total + " rows");
      }
      String id = c.element().getKey();
      List<int[]> rowsOfId = new ArrayList<>();
      c.element().getValue().getAll(VOTES).forEach(rowsOfId::add);
      if (rowsOfId.isEmpty()) {
        return; // a student prediction for a query that has no votes
      }
      Require.that(rowsOfId.size() == 1, "vote rows of query " + id,
          "must be one (each query is released once)", rowsOfId.size());
      Votes votes = new Votes(id, rowsOfId.get(0));
      Require.that(votes.classes() == declared.classes(), "classes of query " + id,
          "must equal the declared " + declared.classes(), votes.classes());
      Require.that(votes.teachers() == declared.teachers(), "teachers of query " + id
          + " (sum of its counts)", "must equal the declared " + declared.teachers(),
          votes.teachers());
      RandomGenerator random = randomness.forElement(STREAM, id);
      Answer answer;
      if (joined) {
        List<double[]> predictions = new ArrayList<>();
        c.element().getValue().getAll(STUDENT).forEach(predictions::add);
        Require.that(predictions.size() == 1, "student predictions of query " + id,
            "must be one", predictions.size());
        answer = ((PateAggregator.InteractiveGnmax) aggregator).answer(votes,
            predictions.get(0), random);
      } else {
        answer = aggregator.answer(votes, random);
      }
      c.output(KV.of(id, answer));
      if (release != null) {
        c.output(SHARES, release.share(aggregator, gnmax, votes, answer));
      }
    }
  }

  /** The exact sum of the shares; the share of no query when there are none. */
  private record SumShares(int teachers)
      implements SerializableFunction<Iterable<GnssRelease.Share>, GnssRelease.Share> {
    @Override
    public GnssRelease.Share apply(Iterable<GnssRelease.Share> shares) {
      GnssRelease.Share sum = GnssRelease.Share.none(teachers);
      for (GnssRelease.Share s : shares) {
        sum = sum.plus(s);
      }
      return sum;
    }
  }

  private static final class ReleaseFn extends DoFn<GnssRelease.Share, GnssRelease.Released> {
    private static final long serialVersionUID = 1L;
    private final PateAggregator aggregator;
    private final Declared declared;
    private final GnssRelease release;
    private final double delta;
    private final ElementRandomness randomness;

    ReleaseFn(PateAggregator aggregator, Declared declared, GnssRelease release, double delta,
        ElementRandomness randomness) {
      this.aggregator = aggregator;
      this.declared = declared;
      this.release = release;
      this.delta = delta;
      this.randomness = randomness;
    }

    @ProcessElement
    public void process(@Element GnssRelease.Share total,
        OutputReceiver<GnssRelease.Released> out) {
      out.output(release.release(total, PateRun.exAnteEvent(aggregator, declared.queries()),
          delta, releaseNoise(randomness)));
    }
  }
}
