/**
 * Stability-based private validation: [StabVal13].
 *
 * <p>Only the paper's appendix is available to this project, so its main-text definitions,
 * Algorithms 1–2 and Theorems 1–5 are <em>reconstructed from the appendix's proofs</em>; every
 * class says which parts are reconstructed. The reconstruction used throughout:
 *
 * <ul>
 *   <li><b>Training procedure</b> T = (G, F): a private trainer draws R ~ G and outputs
 *       F(T, θ, α, R); the randomness R is all the noise.
 *   <li><b>Stability</b> (reconstructed definition): a validation score q is (β₁, β₂, δ)-stable
 *       with respect to T, α and the candidate set Θ (|Θ| = k) if there is a set Σ with Pr_{R~G}[R
 *       ∈ Σ] ≥ 1 − δ/k such that for every R ∈ Σ and θ ∈ Θ: (training stability) |q(F(T, θ, α, R),
 *       V) − q(F(T′, θ, α, R), V)| ≤ β₁/n for training sets T, T′ of size n differing in one
 *       individual, and (validation stability) |q(F(T, θ, α, R), V) − q(F(T, θ, α, R), V′)| ≤ β₂/m
 *       for validation sets of size m differing in one individual. (The per-draw failure δ/k is
 *       what the proofs of Theorems 4 and 6 establish and what the proof of Theorem 1 needs: "all of
 *       R_1, …, R_k lie in Σ" with probability ≥ 1 − δ.)
 *   <li><b>Algorithm 1</b> ({@link dev.tradeoff.selection.stability.StabilityValidation}): draw
 *       R_i, train f_i = F(T, θ_i, α₁, R_i), score s_i = q(f_i, V), add independent Z_i ~ Exp with
 *       rate α₂/(2β), β = max(β₁/n, β₂/m), output i* = argmax_i s_i + Z_i. <b>Theorem 1</b>:
 *       (α₂, δ)-DP (Lemmas 1–2: the score gaps move by at most 2β, and Pr[Z &gt; γ]/Pr[Z &gt; γ +
 *       2β] ≤ e^{α₂}).
 *   <li><b>Algorithm 2</b> ({@link dev.tradeoff.selection.stability.StabilityBasedTuning}): run
 *       Algorithm 1 and release f_{i*}. <b>Theorem 2</b>: (α₁ + α₂, δ)-DP by composition.
 *   <li><b>Theorem 3</b> (utility): with probability ≥ 1 − δ₀, q(f_{i*}, V) ≥ max_i q(f_i, V) −
 *       2β ln(k/δ₀)/α₂ (union bound over Pr[Z_j &gt; t] = e^{−t α₂/(2β)}).
 *   <li><b>Theorem 4</b>: the stability constants of output perturbation (appendix Algorithm 4)
 *       are computed by {@code OutputPerturbationStability} in tradeoff-learning, next to the
 *       mechanism they describe.
 *   <li><b>Theorem 5</b> ({@link dev.tradeoff.selection.stability.SelectionBaselines}):
 *       alphaSplit, dataSplit and Random, with parallel composition (Lemma 4).
 *   <li><b>Algorithm 5 / Theorem 6</b> ({@link
 *       dev.tradeoff.selection.stability.DpHistogramEstimator}, {@link
 *       dev.tradeoff.selection.stability.HistogramStability}): the private histogram density
 *       estimator and the stability of its validation score q (eq. 6).
 * </ul>
 */
package dev.tradeoff.selection.stability;
