package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.guarantee.ApproxDp;
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
    double mu = mu(target, queries);
    return new PateAggregator.Gnmax(Math.nextUp(Math.sqrt(2.0 * queries) / mu));
  }

  /** Confident-GNMax whose Q checks and Q answers together meet {@code target}. */
  public static PateAggregator.ConfidentGnmax confidentGnmax(ApproxDp target, int queries,
      int teachers) {
    Require.positive("teachers", teachers);
    double mu = mu(target, queries);
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
}
