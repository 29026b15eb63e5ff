package dev.tradeoff.mechanisms.sparsevector;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ExPostDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.Geometric;
import java.util.random.RandomGenerator;

/**
 * The ex-post AboveThreshold mechanism (Wu et al., "Ex-post private hyperparameter tuning",
 * Section 3, Algorithm 1), for integer queries f_1, …, f_d of sensitivity 1 with per-query budgets
 * ε_i and an additional budget ε′:
 *
 * <pre>
 *   k ~ Geom_{e^{−ε′}}                      (threshold noise)
 *   for i = 1..d: y_i ~ Geom_{e^{−ε_i}};    if f_i(D) + y_i ≥ k: return (f_i(D) + y_i − k, i)
 *   return ⊥
 * </pre>
 *
 * with Geom_p(k) = (1 − p)p^k, p the failure probability, sampled exactly by {@link Geometric}.
 * A threshold τ other than 0 is handled by passing f_i − τ. Indices here are 0-based.
 *
 * <p>Guarantee ({@link #guarantee()}), ex-post pure DP: ε̃(o, i) = 2ε_i + ε′ and ε̃(⊥) = ε′
 * (Theorem 8); for monotone queries ε̃(o, i) = ε_i + ε′ (Theorem 9). Sums are rounded up. The
 * accounting event is the ex-ante bound sup ε̃ as {@code GuaranteeEvent(PureDp)}; ex-post
 * accounting (filters, ledgers) reads the {@link ExPostDp} instead.
 */
public final class ExPostAboveThreshold implements Mechanism<long[], ExPostAboveThreshold.Outcome> {

  /** The released outcome: (o, i) or ⊥. */
  public sealed interface Outcome permits Above, Bottom {}

  /**
   * Query {@code index} was the first to clear the noisy threshold; {@code estimate} = f_i(D) + y_i −
   * k ≥ 0 comes for free (Ding et al. 2023).
   */
  public record Above(long estimate, int index) implements Outcome {}

  /** No query cleared the threshold (⊥). */
  public record Bottom() implements Outcome {}

  private static final Bottom BOTTOM = new Bottom();

  private final double[] queryEpsilons;
  private final double extraEpsilon;
  private final boolean monotone;
  private final Geometric thresholdNoise;
  private final Geometric[] queryNoise;
  private final double[] outputEpsilons;
  private final double exAnteEpsilon;

  private ExPostAboveThreshold(double[] queryEpsilons, double extraEpsilon, boolean monotone) {
    this.queryEpsilons = Require.finiteValues("queryEpsilons", queryEpsilons);
    for (int i = 0; i < this.queryEpsilons.length; i++) {
      Require.positive("queryEpsilons[" + i + "]", this.queryEpsilons[i]);
    }
    this.extraEpsilon = Require.positive("extraEpsilon", extraEpsilon);
    this.monotone = monotone;
    this.thresholdNoise = Geometric.withFailureProbabilityExpMinus(extraEpsilon);
    this.queryNoise = new Geometric[this.queryEpsilons.length];
    this.outputEpsilons = new double[this.queryEpsilons.length];
    double sup = extraEpsilon;
    for (int i = 0; i < this.queryEpsilons.length; i++) {
      queryNoise[i] = Geometric.withFailureProbabilityExpMinus(this.queryEpsilons[i]);
      double coefficient = monotone ? this.queryEpsilons[i] : DirectedRounding.productUp(2, this.queryEpsilons[i]);
      outputEpsilons[i] = DirectedRounding.sumUp(coefficient, extraEpsilon);
      sup = Math.max(sup, outputEpsilons[i]);
    }
    this.exAnteEpsilon = sup;
  }

  /**
   * Algorithm 1 with per-query budgets ε_i &gt; 0 and additional budget ε′ &gt; 0.
   *
   * @param monotone whether all f_i are monotone with respect to one common order on datasets, so
   *     that between neighbours every query moves in the same direction (Theorem 9); this halves
   *     the ε_i term. Queries moving in mixed directions are NOT monotone in this sense.
   */
  public static ExPostAboveThreshold of(double[] queryEpsilons, double extraEpsilon, boolean monotone) {
    return new ExPostAboveThreshold(queryEpsilons, extraEpsilon, monotone);
  }

  /** The outcome on query answers f_1(D), …, f_d(D) (one per budget). */
  @Override
  public Outcome release(long[] values, RandomGenerator random) {
    Require.nonNull("values", values);
    Require.that(
        values.length == queryEpsilons.length,
        "values",
        "must have one entry per query budget (" + queryEpsilons.length + ")",
        values.length);
    Require.nonNull("random", random);
    long k = thresholdNoise.sample(random);
    for (int i = 0; i < values.length; i++) {
      long noisy = Math.addExact(values[i], queryNoise[i].sample(random));
      if (noisy >= k) {
        return new Above(noisy - k, i);
      }
    }
    return BOTTOM;
  }

  /** ε̃ of an outcome: 2ε_i + ε′ (ε_i + ε′ monotone) for (o, i), ε′ for ⊥; rounded up. */
  public double epsilonOf(Outcome outcome) {
    Require.nonNull("outcome", outcome);
    if (outcome instanceof Above above) {
      Require.inClosedRange("index", above.index(), 0, queryEpsilons.length - 1);
      return outputEpsilons[above.index()];
    }
    return extraEpsilon;
  }

  /** The number of queries d. */
  public int queries() {
    return queryEpsilons.length;
  }

  public boolean monotone() {
    return monotone;
  }

  public double extraEpsilon() {
    return extraEpsilon;
  }

  /** ε_i (a copy). */
  public double[] queryEpsilons() {
    return queryEpsilons.clone();
  }

  @Override
  public ExPostDp<Outcome> guarantee() {
    return ExPostDp.pure(this::epsilonOf, exAnteEpsilon);
  }

  @Override
  public DpEvent event() {
    return new GuaranteeEvent(new PureDp(exAnteEpsilon));
  }
}
