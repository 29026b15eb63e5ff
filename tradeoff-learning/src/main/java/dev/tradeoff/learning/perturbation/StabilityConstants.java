package dev.tradeoff.learning.perturbation;

import dev.tradeoff.accounting.Require;

/**
 * The constants of Theorem 4 (output perturbation) of the stability-based private validation
 * appendix (Chaudhuri and Vinterbo 2013, Section 6.5), for Algorithm 4: w* + (2/(nλα))·R with R of
 * density ∝ e^{−‖r‖}, training set of n records, validation set of m records, a validation score g
 * that is L-Lipschitz in the model and ≥ 0, k candidate λ's, failure probability δ.
 *
 * <p>Derivation, as re-checked here: (i) changing one training record moves the released model by
 * at most 2/(nλ) (Chaudhuri et al. 2011, Lemma 1 / Corollary 8), so the score moves by at most
 * β₁ = 2L/(nλ) (eq. 14). (ii) The event E = {‖R‖ ≤ d·ln(dk/δ)} has probability ≥ 1 − δ/k
 * (Chaudhuri et al. 2011, Lemma 4: Pr[Gamma(d, 1) &gt; d·ln(d/δ′)] ≤ δ′ with δ′ = δ/k). (iii) On E,
 * ‖w* + (2/(nλα))R‖ ≤ 1/λ + 2d·ln(dk/δ)/(nλα), since ‖w*‖ ≤ 1/λ; so changing one validation
 * record moves the mean score by at most β₂ = (L/(mλ))·(1 + 2d·ln(dk/δ)/(nα)) (eq. 15). The
 * scanned appendix is garbled at eq. 15; the constants here are re-derived from its proof, with the
 * factor 2 that Algorithm 4's noise scale 2/(nλα) puts in front of d·ln(dk/δ) (REPRODUCTION.md,
 * "Learning").
 */
public final class StabilityConstants {

  private StabilityConstants() {}

  /** β₁ = 2L/(nλ): training stability of Algorithm 4's score (appendix eq. 14), rounded up. */
  public static double trainingStability(double lipschitz, int n, double lambda) {
    Require.positive("lipschitz", lipschitz);
    Require.positive("n", n);
    Require.positive("lambda", lambda);
    return Math.nextUp(2 * lipschitz / (n * lambda));
  }

  /**
   * d·ln(dk/δ): the radius that ‖R‖ ~ Gamma(d, 1) exceeds with probability at most δ/k (Chaudhuri
   * et al. 2011, Lemma 4 with δ′ = δ/k), rounded up.
   */
  public static double noiseNormRadius(int dimension, int candidates, double delta) {
    Require.positive("dimension", dimension);
    Require.positive("candidates", candidates);
    Require.openUnit("delta", delta);
    return Math.nextUp(dimension * Math.log((double) dimension * candidates / delta));
  }

  /**
   * β₂ = (L/(mλ))·(1 + 2d·ln(dk/δ)/(nα)): validation stability of Algorithm 4's score on E
   * (appendix eq. 15, with the factor 2 restored), rounded up.
   */
  public static double validationStability(
      double lipschitz,
      int validationSize,
      double lambda,
      int n,
      double alpha,
      int dimension,
      int candidates,
      double delta) {
    Require.positive("lipschitz", lipschitz);
    Require.positive("validationSize", validationSize);
    Require.positive("lambda", lambda);
    Require.positive("n", n);
    Require.positive("alpha", alpha);
    double radius = noiseNormRadius(dimension, candidates, delta);
    double modelNorm = Math.nextUp(Math.nextUp(1 + Math.nextUp(2 * radius / (n * alpha))) / lambda);
    return Math.nextUp(Math.nextUp(Math.nextUp(lipschitz * modelNorm) / validationSize));
  }
}
