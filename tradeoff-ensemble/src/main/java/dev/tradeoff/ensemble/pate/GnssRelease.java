package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.io.Serializable;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The private release of a run's data-dependent RDP at one order λ by Gaussian noise scaled by its
 * smooth sensitivity (GNSS; Papernot et al., <i>Scalable private learning with PATE</i>, ICLR 2018,
 * Section 4 and Appendix C, Theorem 23), with the parameters (λ, β, σ) fixed before the votes are
 * read: choosing them from the votes, as the paper's own search over β does, would leak.
 *
 * <p>f(D) = Σ over the processed queries of the data-dependent RDP at λ ({@link
 * PateAggregator#dataDependentRdp}); its local sensitivity at distance d is at most the sum of the
 * queries' bounds at distance ≤ d ({@link SmoothSensitivity}), SS_β(D) = max_d e^{−βd} LS(d), and the release is f̃ =
 * max(0, f(D) + SS_β(D)·σ·Z), Z ~ N(0, 1) drawn on a 2^−40 lattice ({@link SnappedGaussian}) from
 * the given source and f̃ rounded to the public grid 2^−20, so that no low-order floating-point
 * bits of the noise are released. Neither f(D) nor SS_β(D) is released.
 *
 * <p>What the numbers mean. GNSS is a data-independent (λ, {@link #cost()})-RDP mechanism. The
 * labels together with f̃ are, at the actual votes D, (λ, f(D) + cost)-RDP against every
 * neighbour (Theorem 6 composed with Theorem 23), and f̃ is an unbiased noisy reading of f(D):
 * the data-dependent ε is f̃ + cost + log(1/δ)/(λ − 1) ([PATE18, Theorem 5]). It is an estimate of a
 * guarantee that holds at D, not a worst-case guarantee over all vote tables, and it can fall
 * below f(D) (with probability ½, by at most a few SS_β·σ). The worst case of the same run is the
 * data-independent (λ, λμ²/2 + cost)-RDP, μ the run's GDP parameter ({@link
 * #dataIndependentEpsilon}); a charge takes the smaller of the two ({@link Released#charged()}).
 *
 * @param order λ &gt; 1, the order at which the RDP is released
 * @param beta β in (0, 1/(2λ)) (Theorem 23)
 * @param sigma σ &gt; 0, the noise per unit of smooth sensitivity
 */
public record GnssRelease(double order, double beta, double sigma) implements Serializable {

  /** β per 1/λ when none is given: the middle of Papernot et al.'s range [0.3/λ, 0.495/λ). */
  public static final double BETA_TIMES_ORDER = 0.4;

  /** The public grid the released RDP is rounded to: 2^−20. */
  public static final double GRID = 0x1p-20;

  public GnssRelease {
    Require.renyiOrder("order", order);
    Require.finite("order", order);
    Require.positive("beta", beta);
    Require.that(2 * order * beta < 1, "beta", "must be < 1/(2 order) = " + 1 / (2 * order),
        beta);
    Require.positive("sigma", sigma);
    Require.finite("sigma", sigma);
  }

  /** λ and σ with β = {@value #BETA_TIMES_ORDER}/λ. */
  public static GnssRelease of(double order, double sigma) {
    return new GnssRelease(order, BETA_TIMES_ORDER / order, sigma);
  }

  /** The RDP at λ of the release itself (Theorem 23). */
  public double cost() {
    return SmoothSensitivity.gnssRdp(beta, sigma, order);
  }

  /**
   * The worst case at λ of a run with data-independent accounting {@code event}: its GDP μ as RDP λμ²/2, plus {@link #cost()},
   * converted by Theorem 5 and rounded up.
   */
  public double dataIndependentEpsilon(DpEvent event, double delta) {
    Require.nonNull("event", event);
    Require.openUnit("delta", delta);
    double mu = new GdpAccountant().gdp(event, Neighbouring.ADD_OR_REMOVE_ONE).mu();
    return Math.nextUp(order * mu * mu / 2 + cost() + Math.log(1 / delta) / (order - 1));
  }

  /**
   * Releases {@code run}'s data-dependent RDP at λ: the queries' {@link #share shares} summed in
   * table order, then {@link #release(Share, DpEvent, double, RandomGenerator)}.
   *
   * @param table the votes the run processed
   * @param aggregator the run's aggregator (GNMax or Confident-GNMax; Interactive-GNMax is refused)
   * @throws IllegalArgumentException when the GNMax step's σ₂, the number of classes and λ fail
   *     conditions C5–C6, without which the local-sensitivity bound is not proved
   */
  public Released release(PateRun run, VoteTable table, PateAggregator aggregator, double delta,
      RandomGenerator random) {
    Require.nonNull("run", run);
    return release(total(run, table, aggregator), run.event(), delta, random);
  }

  /**
   * Releases the data-dependent RDP whose queries' shares sum to {@code total}, for a run whose
   * data-independent accounting is {@code event}: f̃ = max(0, f + SS_β·σ·Z) on {@link #GRID}.
   * The noise Z is the one value drawn from {@code random}.
   */
  public Released release(Share total, DpEvent event, double delta, RandomGenerator random) {
    Require.nonNull("total", total);
    Require.nonNull("random", random);
    double dataIndependent = dataIndependentEpsilon(event, delta);
    double noisy = total.rdpValue() + SmoothSensitivity.smooth(beta,
        total.localSensitivityValues()) * sigma * SnappedGaussian.forSigma(1).sample(random);
    double released = Math.max(0, Math.rint(noisy / GRID) * GRID);
    double epsilon = Math.nextUp(released + cost() + Math.log(1 / delta) / (order - 1));
    return new Released(this, released, epsilon, dataIndependent, delta);
  }

  /**
   * The GNMax smooth-sensitivity analysis at σ₂, m and λ, refused unless conditions C5 and C6 hold
   * (public parameters: check before anything is charged).
   *
   * @throws IllegalArgumentException naming σ₂, m and λ when they fail, or for Interactive-GNMax
   */
  public SmoothSensitivity.Gnmax requireConditions(PateAggregator aggregator, int classes) {
    Require.nonNull("aggregator", aggregator);
    Require.that(!(aggregator instanceof PateAggregator.InteractiveGnmax), "aggregator",
        INTERACTIVE_REFUSED, "interactive-gnmax");
    SmoothSensitivity.Gnmax gnmax =
        new SmoothSensitivity.Gnmax(aggregator.sigma2(), order, classes);
    Require.that(gnmax.conditionsHold(), "sigma2, classes and order", "must satisfy conditions "
        + "C5 and C6 of Papernot et al. 2018 (Appendix B.4.2) for the smooth-sensitivity bound",
        "sigma2 = " + aggregator.sigma2() + ", " + classes + " classes, order " + order);
    return gnmax;
  }

  /**
   * Why Interactive-GNMax is refused: the smooth-sensitivity analysis of Papernot et al. 2018
   * (Section 4, Appendix B.4; TensorFlow Privacy's {@code smooth_sensitivity.py} follows it)
   * bounds the threshold check's local sensitivity through the integer max_j n_j, which takes only
   * the values v₀ ± d at distance d; Interactive-GNMax's check reads the real-valued max_j (n_j −
   * K·p_j), which at distance d ranges over the whole interval [v₀ − d, v₀ + d], so that analysis
   * gives no bound for it.
   */
  static final String INTERACTIVE_REFUSED = "must be gnmax or confident-gnmax for the "
      + "smooth-sensitivity release: its analysis (Papernot et al. 2018, Section 4 and Appendix "
      + "B.4) bounds the check through the integer max_j n_j, not Interactive-GNMax's real-valued "
      + "max_j (n_j - K p_j)";

  /**
   * One query's share of f(D) and of the local sensitivities LS(d), d = 0, …, K − 1, on the
   * {@link Share#UNIT} grid, each rounded up: the check's bound (Confident-GNMax) and, when the
   * query was answered, GNMax's ({@link SmoothSensitivity}), each as its running maximum over d.
   *
   * @param gnmax the analysis {@link #requireConditions} returned for the aggregator
   * @param answer what the aggregator released for the query
   */
  public Share share(PateAggregator aggregator, SmoothSensitivity.Gnmax gnmax, Votes votes,
      Answer answer) {
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("gnmax", gnmax);
    Require.nonNull("votes", votes);
    Require.nonNull("answer", answer);
    Require.that(!(aggregator instanceof PateAggregator.InteractiveGnmax), "aggregator",
        INTERACTIVE_REFUSED, "interactive-gnmax");
    boolean answered = answer instanceof Answer.Labelled;
    int k = Math.toIntExact(votes.teachers());
    long[] ls = new long[k];
    if (aggregator instanceof PateAggregator.ConfidentGnmax c) {
      addRunningMax(ls, SmoothSensitivity.threshold(votes.maxCount(), k, c.threshold(),
          c.sigma1(), order));
    }
    if (answered) {
      addRunningMax(ls, gnmax.localSensitivities(votes.counts()));
    }
    return new Share(Share.up(aggregator.dataDependentRdp(votes, answered, order)), ls);
  }

  /** The sum of the run's shares, in table order. NOT releasable. */
  Share total(PateRun run, VoteTable table, PateAggregator aggregator) {
    Require.nonNull("run", run);
    Require.nonNull("table", table);
    SmoothSensitivity.Gnmax gnmax = requireConditions(aggregator, table.classes());
    Share total = Share.none(table.teachers());
    for (int q = 0; q < run.processed(); q++) {
      total = total.plus(share(aggregator, gnmax, table.rows().get(q), run.answers().get(q)));
    }
    return total;
  }

  /** f(D): the run's data-dependent RDP at λ (shares rounded up). NOT releasable. */
  double exact(PateRun run, VoteTable table, PateAggregator aggregator) {
    return total(run, table, aggregator).rdpValue();
  }

  /** SS_β(D) of f at the run's votes and answers. NOT releasable. */
  double smoothSensitivity(PateRun run, VoteTable table, PateAggregator aggregator) {
    return SmoothSensitivity.smooth(beta, total(run, table, aggregator).localSensitivityValues());
  }

  /**
   * Adds a query's bound at distance ≤ d, the running maximum of its per-distance values, rounded
   * up to the grid: those are maxima at the farthest points reached (the threshold check's v₀ ±
   * d, the GNMax walk's end), not over every histogram at distance d, so only their running maxima
   * may be summed over queries. (TensorFlow Privacy's {@code smooth_sensitivity_table.py} sums the
   * per-distance values themselves, which can miss a query's larger value at a smaller distance
   * and then is not an upper bound on the sum's local sensitivity, nor β-smooth.)
   */
  private static void addRunningMax(long[] sum, double[] terms) {
    double max = 0;
    for (int d = 0; d < sum.length; d++) {
      max = Math.max(max, terms[d]);
      sum[d] = Math.addExact(sum[d], Share.up(max));
    }
  }

  /**
   * A sum of queries' shares of f(D) and of LS(d), in units of {@link #UNIT} = 2^−44, each query's
   * value rounded up: the sums are exact integers, the same in any order, so a pipeline that adds
   * the shares on many workers (in any grouping) gets the very f and SS_β of the in-memory run.
   * Rounding up keeps both bounds valid: a query's rounded f moves by at most its rounded LS
   * between neighbours (⌈a⌉ − ⌈b⌉ ≤ ⌈a − b⌉ on the grid), and rounding is monotone, so the
   * β-smoothness of the sum is kept. A share is a function of the votes: NOT releasable, only
   * its noisy release is.
   *
   * @param rdp f in units
   * @param localSensitivities LS(d) in units, d = 0, …, K − 1 (copied)
   */
  public record Share(long rdp, long[] localSensitivities) implements Serializable {

    /** The grid of the sums: 2^−44. */
    public static final double UNIT = 0x1p-44;

    public Share {
      Require.that(rdp >= 0, "rdp", "must be >= 0", rdp);
      localSensitivities = Require.nonNull("localSensitivities", localSensitivities).clone();
    }

    /** The share of no query, for K teachers. */
    public static Share none(int teachers) {
      return new Share(0, new long[Require.positive("teachers", teachers)]);
    }

    /** The exact sum of two shares. */
    public Share plus(Share other) {
      Require.nonNull("other", other);
      Require.that(other.localSensitivities.length == localSensitivities.length,
          "teachers of the share", "must be " + localSensitivities.length,
          other.localSensitivities.length);
      long[] ls = new long[localSensitivities.length];
      for (int d = 0; d < ls.length; d++) {
        ls[d] = Math.addExact(localSensitivities[d], other.localSensitivities[d]);
      }
      return new Share(Math.addExact(rdp, other.rdp), ls);
    }

    @Override
    public long[] localSensitivities() {
      return localSensitivities.clone();
    }

    /** f, rounded up to a double. */
    public double rdpValue() {
      return value(rdp);
    }

    /** LS(d), each rounded up to a double. */
    public double[] localSensitivityValues() {
      return Arrays.stream(localSensitivities).mapToDouble(Share::value).toArray();
    }

    /** ⌈x / UNIT⌉ for a finite x ≥ 0. */
    static long up(double x) {
      Require.nonNegative("share", x);
      double units = Math.ceil(x / UNIT);
      Require.that(units < 0x1p62, "share", "must be < 2^18 to be summed on the 2^-44 grid", x);
      return (long) units;
    }

    private static double value(long units) {
      double d = units;
      // a long above 2^53 converts to the nearest double, which may be below it
      return (d < 0x1p63 && (long) d < units ? Math.nextUp(d) : d) * UNIT;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Share s && rdp == s.rdp
          && Arrays.equals(localSensitivities, s.localSensitivities);
    }

    @Override
    public int hashCode() {
      return 31 * Long.hashCode(rdp) + Arrays.hashCode(localSensitivities);
    }

    @Override
    public String toString() {
      return "Share[rdp=" + rdp + " units, " + localSensitivities.length + " distances]";
    }
  }

  /**
   * A released data-dependent ε.
   *
   * @param parameters (λ, β, σ)
   * @param releasedRdp f̃, the noisy data-dependent RDP at λ (rounded to {@link #GRID}, ≥ 0)
   * @param epsilon f̃ + cost + log(1/δ)/(λ − 1), rounded up: the data-dependent ε with the
   *     release's own cost included
   * @param dataIndependentEpsilon the worst case at λ, release cost included
   * @param delta δ
   */
  public record Released(GnssRelease parameters, double releasedRdp, double epsilon,
      double dataIndependentEpsilon, double delta) implements Serializable {

    /** Whether the data-dependent ε is the smaller, and so the one charged. */
    public boolean dataDependentCharged() {
      return epsilon < dataIndependentEpsilon;
    }

    /** The smaller of the two, at δ: what a ledger is charged when the user opts in. */
    public ApproxDp charged() {
      return new ApproxDp(Math.min(epsilon, dataIndependentEpsilon), delta);
    }
  }
}
