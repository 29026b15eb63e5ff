package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;

/**
 * The documented rule that picks an aggregator's parameters from a target (ε, δ) and the number of
 * queries Q when the user gives none: the noise is the smallest that keeps {@link
 * PateRun#allQueries}' ex-ante guarantee within (ε, δ). With μ the largest GDP parameter that
 * implies (ε, δ)-DP ({@link GaussianDpConversion#mu}), Q checks and Q GNMax steps compose to
 * √(Q/σ₁² + 2Q/σ₂²)-GDP, so
 *
 * <ul>
 *   <li>GNMax: σ₂ = √(2Q)/μ;
 *   <li>Confident-GNMax: σ₁ = {@value #SIGMA1_PER_SIGMA2}·σ₂ and T = {@value
 *       #THRESHOLD_PER_TEACHER}·K, the ratios of Papernot et al. 2018's MNIST setting (K = 250, T =
 *       200, σ₁ = 150, σ₂ = 40, their Table 2), and σ₂ = √(Q(2 + 1/{@value #SIGMA1_PER_SIGMA2}²))/μ.
 * </ul>
 *
 * σ₂ is rounded up (more noise: the safe direction), and μ is first shrunk by {@value
 * #MU_MARGIN} relative, far more than the rounding of {@link PateRun#guarantee} (a few ulps), so
 * that the guarantee recomputed from these parameters never exceeds the target.
 */
public final class PateCalibration {

  /** σ₁/σ₂ of Papernot et al. 2018's MNIST setting: 150/40. */
  public static final double SIGMA1_PER_SIGMA2 = 3.75;

  /** T/K of Papernot et al. 2018's MNIST setting: 200/250. */
  public static final double THRESHOLD_PER_TEACHER = 0.8;

  /** The relative margin taken off μ. */
  public static final double MU_MARGIN = 1e-9;

  private PateCalibration() {}

  /** GNMax whose Q answers together meet {@code target}. */
  public static PateAggregator.Gnmax gnmax(ApproxDp target, int queries) {
    return gnmax(mu(target, queries), queries);
  }

  /** Confident-GNMax whose Q checks and Q answers together meet {@code target}. */
  public static PateAggregator.ConfidentGnmax confidentGnmax(ApproxDp target, int queries,
      int teachers) {
    return confidentGnmax(mu(target, queries), queries, teachers);
  }

  /** GNMax whose Q answers compose to at most μ-GDP: σ₂ = √(2Q)/μ, rounded up. */
  public static PateAggregator.Gnmax gnmax(double mu, int queries) {
    Require.positive("mu", mu);
    Require.positive("queries", queries);
    return new PateAggregator.Gnmax(Math.nextUp(Math.sqrt(2.0 * queries) / mu));
  }

  /** Confident-GNMax whose Q checks and Q answers compose to at most μ-GDP, by the ratios above. */
  public static PateAggregator.ConfidentGnmax confidentGnmax(double mu, int queries,
      int teachers) {
    Require.positive("mu", mu);
    Require.positive("queries", queries);
    Require.positive("teachers", teachers);
    double perQuery = 2 + 1 / (SIGMA1_PER_SIGMA2 * SIGMA1_PER_SIGMA2);
    double sigma2 = Math.nextUp(Math.sqrt(queries * perQuery) / mu);
    return new PateAggregator.ConfidentGnmax(THRESHOLD_PER_TEACHER * teachers,
        Math.nextUp(SIGMA1_PER_SIGMA2 * sigma2), sigma2);
  }

  private static double mu(ApproxDp target, int queries) {
    Require.nonNull("target", target);
    Require.positive("queries", queries);
    Require.positive("epsilon", target.epsilon());
    Require.openUnit("delta", target.delta());
    return GaussianDpConversion.mu(target.epsilon(), target.delta()) * (1 - MU_MARGIN);
  }

  /** The orders λ the release rule searches (public, fixed). */
  static final double[] RELEASE_ORDERS = {2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40,
      48, 64};

  /**
   * The share of the room left at λ (ε − log(1/δ)/(λ − 1) − the release's σ-free cost) that the
   * release's noise term λe^{2β}/σ² gets when the rule also picks the aggregator's noise.
   */
  public static final double RELEASE_SHARE = 0.1;

  /**
   * The rule for {@code --charge data-dependent} when the user gives (ε, δ) and no release
   * parameters: the reserved worst case at λ, (λ, λμ²/2 + c(λ, σ))-RDP converted by Papernot et
   * al. 2018's Theorem 5 ({@link GnssRelease#dataIndependentEpsilon}), must fit ε, where c(λ, σ)
   * = λe^{2β}/σ² + (βλ − ½ log(1 − 2λβ))/(λ − 1) is the release's own cost (their Theorem 23)
   * with β = {@link GnssRelease#BETA_TIMES_ORDER}/λ. Everything it reads is public — ε, δ, Q and
   * the labels' μ — so the choice is made before any vote is read. With room(λ) = ε − log(1/δ)/(λ
   * − 1) − (βλ − ½ log(1 − 2λβ))/(λ − 1), which must be positive:
   *
   * <ul>
   *   <li>the labels' μ given (the aggregator's noise is given): the release gets all the room
   *       the labels leave, A(λ) = room(λ) − λμ²/2, and σ = √(λe^{2β}/A(λ)), the least noise that
   *       fits; λ is the order of the grid with the smallest σ, the most precise release of f(D)
   *       per unit of smooth sensitivity the budget affords.
   *   <li>μ not given: the release's noise term gets {@value #RELEASE_SHARE} of room(λ)
   *       and the labels the rest, λμ²/2 = (1 − {@value #RELEASE_SHARE})·room(λ); λ is the order
   *       with the largest μ (the least noise on the labels), σ follows as above.
   * </ul>
   *
   * ε is shrunk by {@value #MU_MARGIN} relative and σ rounded up, so that the worst case computed
   * from the chosen parameters never exceeds ε.
   *
   * @param target (ε, δ)
   * @throws IllegalArgumentException when no order of the grid leaves room for a release
   */
  public static ReleaseChoice release(ApproxDp target) {
    return release(target, Double.NaN);
  }

  /**
   * {@link #release(ApproxDp)} for labels whose noise is given: their data-independent accounting
   * {@code labelsEvent} (its GDP μ) is what the release has to fit beside.
   */
  public static ReleaseChoice release(ApproxDp target, DpEvent labelsEvent) {
    Require.nonNull("labelsEvent", labelsEvent);
    return release(target,
        new GdpAccountant().gdp(labelsEvent, Neighbouring.ADD_OR_REMOVE_ONE).mu());
  }

  private static ReleaseChoice release(ApproxDp target, double labelsMu) {
    Require.nonNull("target", target);
    Require.positive("epsilon", target.epsilon());
    Require.openUnit("delta", target.delta());
    boolean given = !Double.isNaN(labelsMu);
    if (given) {
      Require.positive("labelsMu", labelsMu);
    }
    double epsilon = target.epsilon() * (1 - MU_MARGIN);
    ReleaseChoice best = null;
    for (double order : RELEASE_ORDERS) {
      double beta = GnssRelease.BETA_TIMES_ORDER / order;
      double fixedCost = (beta * order - 0.5 * Math.log1p(-2 * order * beta)) / (order - 1);
      double room = epsilon - Math.log(1 / target.delta()) / (order - 1) - fixedCost;
      double mu = given ? labelsMu : Math.sqrt(2 * (1 - RELEASE_SHARE) * room / order);
      double allowance = given ? room - order * labelsMu * labelsMu / 2 : RELEASE_SHARE * room;
      if (room <= 0 || allowance <= 0) {
        continue;
      }
      double sigma = Math.nextUp(Math.sqrt(order * Math.exp(2 * beta) / allowance));
      ReleaseChoice choice = new ReleaseChoice(new GnssRelease(order, beta, sigma), mu);
      if (best == null || (given ? sigma < best.release().sigma() : mu > best.labelsMu())) {
        best = choice;
      }
    }
    Require.that(best != null, "epsilon", "must leave room at some order in "
        + java.util.Arrays.toString(RELEASE_ORDERS) + " for the labels and the "
        + "smooth-sensitivity release (its cost at least (0.4 - log(0.2)/2)/(order - 1))"
        + (given ? " with the given noise" : ""), target.epsilon());
    return best;
  }

  /**
   * The release parameters the rule picked and the labels' μ (the given one, or the chosen one
   * for {@link #gnmax(double, int)} / {@link #confidentGnmax(double, int, int)}).
   */
  public record ReleaseChoice(GnssRelease release, double labelsMu) {}
}
