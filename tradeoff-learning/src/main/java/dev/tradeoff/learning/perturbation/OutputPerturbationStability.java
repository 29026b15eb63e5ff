package dev.tradeoff.learning.perturbation;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.selection.stability.StabilityConstants;

/**
 * [StabVal13, Theorem 4] for output perturbation (appendix Algorithm 4,
 * implemented by {@link OutputPerturbation#pure}): with a 1-Lipschitz convex loss, ‖x‖ ≤ 1,
 * regularisation λ, training size n, privacy α, dimension d, k candidates, and a validation score
 * q(w, V) = ±(1/m) Σ_{(x,y)∈V} g(w, x, y) with g ≥ 0, L-Lipschitz in w and bounded by g*:
 *
 * <pre>
 *   β₁ = 2L/λ,   β₂ = min(g*, (L/λ)(1 + 2d ln(dk/δ)/(nα))).
 * </pre>
 *
 * (eqs. 14–15; the statement itself is not in the appendix and is reconstructed from the proof:
 * the event ‖R‖ ≤ d ln(dk/δ) has probability ≥ 1 − δ/k by Lemma 4 of Chaudhuri et al. 2011, and
 * ‖w* + 2R/(nλα)‖ ≤ 1/λ + 2d ln(dk/δ)/(nλα) on it.) The noise radius reuses {@link
 * NormNoise#gammaNormRadius}.
 *
 * <p>The constants are computed for what {@link OutputPerturbation} actually releases: its solver
 * stops at a certified ‖ŵ − w*‖ ≤ τ, so the training sensitivity is Δ = 2/(nλ) + 2τ (β₁ = LΔn =
 * 2L/λ + 2Lτn), the noise scale is Δ/α, and ‖ŵ + b‖ ≤ 1/λ + τ + d ln(dk/δ)·Δ/α on the event
 * (β₂ = min(g*, L·that)). All rounded up.
 */
public final class OutputPerturbationStability {

  private OutputPerturbationStability() {}

  /**
   * The stability constants of Theorem 4.
   *
   * @param mechanism the output perturbation (pure variant) used to train every candidate
   * @param lipschitz L &gt; 0, the Lipschitz constant of g in w
   * @param scoreBound g* &gt; 0, the bound on g ({@code +∞} if unbounded)
   * @param n training size
   * @param m validation size
   * @param dimension d
   * @param candidates k
   * @param delta δ in (0, 1)
   */
  public static StabilityConstants constants(OutputPerturbation mechanism, double lipschitz,
      double scoreBound, int n, int m, int dimension, int candidates, double delta) {
    Require.nonNull("mechanism", mechanism);
    Require.that(mechanism.delta() == 0, "mechanism", "must be the pure (Algorithm 4) variant",
        mechanism.guarantee());
    Require.positive("lipschitz", lipschitz);
    Require.that(scoreBound > 0, "scoreBound", "must be > 0", scoreBound);
    Require.positive("m", m);
    double perTraining = Math.nextUp(lipschitz * mechanism.sensitivity(n));
    Require.positive("candidates", candidates);
    Require.openUnit("delta", delta);
    double radius = NormNoise.gammaNormRadius(dimension, delta / candidates);
    double noiseScale = mechanism.normNoise(n, dimension).orElseThrow().scale();
    double modelNorm = Math.nextUp(Math.nextUp(1 / mechanism.lambda())
        + Math.nextUp(mechanism.solver().tolerance() + Math.nextUp(radius * noiseScale)));
    double beta1 = Math.nextUp(perTraining * n);
    double beta2 = Math.min(scoreBound, Math.nextUp(lipschitz * modelNorm));
    return new StabilityConstants(beta1, beta2, delta);
  }
}
