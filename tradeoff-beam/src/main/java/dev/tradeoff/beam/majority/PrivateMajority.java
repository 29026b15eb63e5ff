package dev.tradeoff.beam.majority;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.PrivateTransform;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.ensemble.aggregate.Darrm;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.pate.Answer;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.pate.Votes;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.util.Optional;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The private majority of an ensemble, per query, over a collection of (query index, votes)
 * pairs: one released label per query.
 *
 * <ul>
 *   <li>{@link #darrm}: DaRRM, [DaRRM24, Algorithm 1], with a noise function γ that the exact verifier of the ensemble
 *       module certifies (m ε, δ)-DP for the setting (a given γ, γ_Sub, or the optimised γ_opt).
 *       Votes are binary (0/1), one per teacher. Each label is (m ε, δ)-DP; the Q labels are
 *       accounted as the Q-fold composition of that guarantee.
 *   <li>{@link #gnmax}: GNMax (Papernot et al. 2018): argmax of the per-class vote counts plus
 *       N(0, σ²). One teacher changes two counts by one (L2 sensitivity √2), so one label is the
 *       post-processing of a Gaussian mechanism with σ/√2 per unit sensitivity, i.e. (λ, λ/σ²)-RDP
 *       at every order; the Q labels are accounted as Q such Gaussian events.
 *   <li>{@link #confidentGnmax}: Confident-GNMax (Papernot et al. 2018, Algorithm 1, {@link
 *       PateAggregator.ConfidentGnmax}): a noisy check of the top count against T (sensitivity 1)
 *       before GNMax, {@value #ABSTAINED} for an abstention. Any query may pass its check, so the
 *       Q queries are accounted as Q checks and Q GNMax steps ({@link PateRun#exAnteEvent}).
 * </ul>
 *
 * <p>The number Q of queries is declared up front, so the guarantee is known before the pipeline
 * runs. Query indices must be distinct and in [0, Q); an index outside the range fails the
 * pipeline (a repeated index would be a second release of that query and is the caller's
 * responsibility). With seeded randomness the label of a query depends only on (seed, index,
 * votes), so every runner produces the same labels.
 */
public final class PrivateMajority
    extends PrivateTransform<PCollection<KV<Long, int[]>>, PCollection<KV<Long, Integer>>> {

  private static final long serialVersionUID = 1L;

  /** The label of a query on which Confident-GNMax abstained. */
  public static final int ABSTAINED = -1;

  private final Aggregation aggregation;
  private final int queries;
  private final ElementRandomness randomness;
  private final transient DpEvent perQuery;
  private final transient PrivacyCertificate certificate;

  private PrivateMajority(Aggregation aggregation, int queries, ElementRandomness randomness,
      DpEvent perQuery, PrivacyCertificate certificate) {
    this.aggregation = aggregation;
    this.queries = Require.positive("queries", queries);
    this.randomness = Require.nonNull("randomness", randomness);
    this.perQuery = perQuery;
    this.certificate = certificate;
  }

  /**
   * DaRRM with noise function γ, certified for the setting before anything runs.
   *
   * @throws IllegalArgumentException if γ does not make DaRRM (m ε, δ)-DP for the setting
   */
  public static PrivateMajority darrm(DarrmSetting setting, NoiseFunction gamma, int queries,
      ElementRandomness randomness) {
    Require.nonNull("setting", setting);
    Require.nonNull("gamma", gamma);
    Require.that(gamma.teachers() == setting.teachers(), "gamma", "must be for K = "
        + setting.teachers() + " teachers", gamma.teachers());
    PrivacyCertificate certificate = new PrivacyVerifier(setting).certify(gamma);
    if (!certificate.isPrivate()) {
      throw new IllegalArgumentException("gamma must make DaRRM (" + setting.target().epsilon()
          + ", " + setting.target().delta() + ")-DP, but its privacy cost "
          + certificate.maxPrivacyCost() + " exceeds the bound " + certificate.bound());
    }
    return new PrivateMajority(new DarrmAggregation(gamma.values()), queries, randomness,
        new GuaranteeEvent(certificate.certifiedGuarantee()), certificate);
  }

  /**
   * GNMax with the given σ over {@code classes} classes (votes are class labels in [0, classes)).
   */
  public static PrivateMajority gnmax(GnMax gnmax, int classes, int queries,
      ElementRandomness randomness) {
    Require.nonNull("gnmax", gnmax);
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    return new PrivateMajority(new GnMaxAggregation(gnmax.sigma(), gnmax.lambda(), classes),
        queries, randomness, new GaussianEvent(gnmax.sigma() / Math.sqrt(2)), null);
  }

  /**
   * Confident-GNMax over {@code classes} classes (votes are class labels in [0, classes)); a query
   * whose noisy top count falls below T gets {@link #ABSTAINED}.
   */
  public static PrivateMajority confidentGnmax(PateAggregator.ConfidentGnmax confident,
      int classes, int queries, ElementRandomness randomness) {
    Require.nonNull("confident", confident);
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    return new PrivateMajority(new ConfidentGnmaxAggregation(confident.threshold(),
        confident.sigma1(), confident.sigma2(), classes), queries,
        randomness, PateRun.exAnteEvent(confident, 1), null);
  }

  /** GNMax calibrated to the per-query target ([DaRRM24, Appendix D.2.1] grid search). */
  public static PrivateMajority gnmax(ApproxDp perQueryTarget, int classes, int queries,
      ElementRandomness randomness) {
    return gnmax(GnMax.calibrated(perQueryTarget), classes, queries, randomness);
  }

  /** The event of one query. */
  public DpEvent perQueryEvent() {
    return perQuery;
  }

  /** The verifier's certificate of γ (DaRRM only). */
  public Optional<PrivacyCertificate> certificate() {
    return Optional.ofNullable(certificate);
  }

  /** The declared number of queries. */
  public int queries() {
    return queries;
  }

  @Override
  public DpEvent event() {
    return queries == 1 ? perQuery : new SelfComposedEvent(perQuery, queries);
  }

  @Override
  public PCollection<KV<Long, Integer>> expand(PCollection<KV<Long, int[]>> votes) {
    return votes
        .apply("Aggregate", ParDo.of(new AggregateFn(aggregation, queries, randomness)))
        .setCoder(KvCoder.of(VarLongCoder.of(), VarIntCoder.of()));
  }

  /**
   * The same private majority over (query id, votes) pairs, for queries named by a string id
   * rather than an index in [0, Q): the noise of a query comes from {@code randomness} for
   * (stream, id). The caller counts the Q queries up front (this transform's {@link #event()} is
   * still the Q-fold composition); an id that occurs twice is two queries.
   */
  public PTransform<PCollection<KV<String, int[]>>, PCollection<KV<String, Integer>>> byId() {
    return new ById(perQuery());
  }

  /**
   * The same private majority as a function of one query's (id, votes), for a transform that
   * labels queries inside its own {@code DoFn} (reading, voting and writing a range of queries in
   * one step): the noise of a query comes from {@code randomness} for (stream, id) exactly as in
   * {@link #byId()}, so both give the same labels for the same seed. The caller is responsible for
   * applying it once per query of the Q declared.
   */
  public QueryMajority perQuery() {
    return new IdMajority(aggregation, randomness);
  }

  /** The private majority of one query named by a string id (see {@link #perQuery()}). */
  public interface QueryMajority extends java.io.Serializable {
    /**
     * The released label of one query.
     *
     * @param id the query's id (its noise is drawn for this id)
     * @param votes the K teachers' votes
     * @return the label, a class index
     */
    int label(String id, int[] votes);
  }

  private record IdMajority(Aggregation aggregation, ElementRandomness randomness)
      implements QueryMajority {
    @Override
    public int label(String id, int[] votes) {
      return aggregation.aggregate(votes, randomness.forElement(aggregation.stream(), id));
    }
  }

  private static final class ById
      extends PTransform<PCollection<KV<String, int[]>>, PCollection<KV<String, Integer>>> {
    private static final long serialVersionUID = 1L;
    private final QueryMajority majority;

    ById(QueryMajority majority) {
      this.majority = majority;
    }

    @Override
    public PCollection<KV<String, Integer>> expand(PCollection<KV<String, int[]>> votes) {
      return votes.apply("Aggregate", ParDo.of(new ByIdFn(majority)))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()));
    }
  }

  private static final class ByIdFn extends DoFn<KV<String, int[]>, KV<String, Integer>> {
    private static final long serialVersionUID = 1L;
    private final QueryMajority majority;

    ByIdFn(QueryMajority majority) {
      this.majority = majority;
    }

    @ProcessElement
    public void process(@Element KV<String, int[]> query, OutputReceiver<KV<String, Integer>> out) {
      out.output(KV.of(query.getKey(), majority.label(query.getKey(), query.getValue())));
    }
  }

  /** One query's aggregation rule; serializable, so it travels to the workers. */
  interface Aggregation extends java.io.Serializable {
    int aggregate(int[] votes, java.util.random.RandomGenerator random);

    String stream();
  }

  /** DaRRM with fixed γ values (the {@link NoiseFunction} is rebuilt from them). */
  record DarrmAggregation(double[] gamma) implements Aggregation {
    @Override
    public int aggregate(int[] votes, java.util.random.RandomGenerator random) {
      return Darrm.aggregate(votes, new NoiseFunction(gamma), random);
    }

    @Override
    public String stream() {
      return "majority-darrm";
    }
  }

  /** GNMax over vote counts. */
  record GnMaxAggregation(double sigma, double lambda, int classes) implements Aggregation {
    @Override
    public int aggregate(int[] votes, java.util.random.RandomGenerator random) {
      return new GnMax(sigma, lambda).aggregate(counts(votes, classes), random);
    }

    @Override
    public String stream() {
      return "majority-gnmax";
    }
  }

  /**
   * Confident-GNMax over vote counts; {@link #ABSTAINED} for an abstention. Holds the parameters
   * (the aggregator is rebuilt from them), so that it serializes to the workers.
   */
  record ConfidentGnmaxAggregation(double threshold, double sigma1, double sigma2, int classes)
      implements Aggregation {
    @Override
    public int aggregate(int[] votes, java.util.random.RandomGenerator random) {
      Answer answer = new PateAggregator.ConfidentGnmax(threshold, sigma1, sigma2)
          .answer(new Votes("query", counts(votes, classes)), random);
      return answer instanceof Answer.Labelled l ? l.label() : ABSTAINED;
    }

    @Override
    public String stream() {
      return "majority-confident-gnmax";
    }
  }

  /** Per-class counts of the teachers' class labels. */
  private static int[] counts(int[] votes, int classes) {
    int[] counts = new int[classes];
    for (int i = 0; i < votes.length; i++) {
      int v = votes[i];
      Require.that(v >= 0 && v < classes, "votes[" + i + "]",
          "must be a class in [0, " + classes + ")", v);
      counts[v]++;
    }
    return counts;
  }

  private static final class AggregateFn extends DoFn<KV<Long, int[]>, KV<Long, Integer>> {
    private static final long serialVersionUID = 1L;
    private final Aggregation aggregation;
    private final int queries;
    private final ElementRandomness randomness;

    AggregateFn(Aggregation aggregation, int queries, ElementRandomness randomness) {
      this.aggregation = aggregation;
      this.queries = queries;
      this.randomness = randomness;
    }

    @ProcessElement
    public void process(@Element KV<Long, int[]> query, OutputReceiver<KV<Long, Integer>> out) {
      long index = query.getKey();
      if (index < 0 || index >= queries) {
        throw new IllegalArgumentException("query index must be in [0, " + queries
            + ") (the declared number of queries), but was " + index);
      }
      var random = randomness.forElement(aggregation.stream(), index);
      out.output(KV.of(index, aggregation.aggregate(query.getValue(), random)));
    }
  }
}
