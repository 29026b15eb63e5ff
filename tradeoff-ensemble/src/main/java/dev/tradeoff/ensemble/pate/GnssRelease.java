package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
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
public record GnssRelease(double order, double beta, double sigma) {

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
   * Releases {@code run}'s data-dependent RDP at λ.
   *
   * @param table the votes the run processed
   * @param aggregator the run's aggregator (GNMax or Confident-GNMax; Interactive-GNMax is refused)
   * @throws IllegalArgumentException when the GNMax step's σ₂, the number of classes and λ fail
   *     conditions C5–C6, without which the local-sensitivity bound is not proved
   */
  public Released release(PateRun run, VoteTable table, PateAggregator aggregator, double delta,
      RandomGenerator random) {
    Require.nonNull("table", table);
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("random", random);
    Require.nonNull("run", run);
    double dataIndependent = dataIndependentEpsilon(run.event(), delta);
    double rdp = exact(run, table, aggregator);
    double noisy = rdp + smoothSensitivity(run, table, aggregator)
        * sigma * SnappedGaussian.forSigma(1).sample(random);
    double released = Math.max(0, Math.rint(noisy / GRID) * GRID);
    double epsilon = Math.nextUp(released + cost() + Math.log(1 / delta) / (order - 1));
    return new Released(this, released, epsilon, dataIndependent, delta);
  }

  /**
   * The GNMax smooth-sensitivity analysis at σ₂, m and λ, refused unless conditions C5 and C6 hold
   * (public parameters: check before anything is charged).
   *
   * @throws IllegalArgumentException naming σ₂, m and λ when they fail
   */
  public SmoothSensitivity.Gnmax requireConditions(PateAggregator aggregator, int classes) {
    Require.nonNull("aggregator", aggregator);
    Require.that(!(aggregator instanceof PateAggregator.InteractiveGnmax), "aggregator",
        "must be gnmax or confident-gnmax for the smooth-sensitivity release (Interactive-GNMax's "
            + "check reads a real-valued max_j (n_j - K p_j), which this analysis does not cover)",
        "interactive-gnmax");
    SmoothSensitivity.Gnmax gnmax =
        new SmoothSensitivity.Gnmax(aggregator.sigma2(), order, classes);
    Require.that(gnmax.conditionsHold(), "sigma2, classes and order", "must satisfy conditions "
        + "C5 and C6 of Papernot et al. 2018 (Appendix B.4.2) for the smooth-sensitivity bound",
        "sigma2 = " + aggregator.sigma2() + ", " + classes + " classes, order " + order);
    return gnmax;
  }

  /** f(D): the run's data-dependent RDP at λ. NOT releasable. */
  double exact(PateRun run, VoteTable table, PateAggregator aggregator) {
    double sum = 0;
    for (int q = 0; q < run.processed(); q++) {
      sum += aggregator.dataDependentRdp(table.rows().get(q),
          run.answers().get(q) instanceof Answer.Labelled, order);
    }
    return sum;
  }

  /** SS_β(D) of f at the run's votes and answers. NOT releasable. */
  double smoothSensitivity(PateRun run, VoteTable table, PateAggregator aggregator) {
    int k = table.teachers();
    double[] ls = new double[k];
    SmoothSensitivity.Gnmax gnmax = requireConditions(aggregator, table.classes());
    for (int q = 0; q < run.processed(); q++) {
      Votes v = table.rows().get(q);
      if (aggregator instanceof PateAggregator.ConfidentGnmax c) {
        add(ls, SmoothSensitivity.threshold(v.maxCount(), k, c.threshold(), c.sigma1(), order));
      }
      if (run.answers().get(q) instanceof Answer.Labelled) {
        add(ls, gnmax.localSensitivities(v.counts()));
      }
    }
    return SmoothSensitivity.smooth(beta, ls);
  }

  /**
   * Adds a query's bound at distance ≤ d, the running maximum of its per-distance values: those
   * are maxima at the farthest points reached (the threshold check's v₀ ± d, the GNMax walk's end),
   * not over every histogram at distance d, so only their running maxima may be summed over
   * queries. (TensorFlow Privacy's {@code smooth_sensitivity_table.py} sums the per-distance values
   * themselves, which can miss a query's larger value at a smaller distance and then is not an
   * upper bound on the sum's local sensitivity, nor β-smooth.)
   */
  private static void add(double[] sum, double[] terms) {
    double max = 0;
    for (int d = 0; d < sum.length; d++) {
      max = Math.max(max, terms[d]);
      sum[d] += max;
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
      double dataIndependentEpsilon, double delta) {

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
