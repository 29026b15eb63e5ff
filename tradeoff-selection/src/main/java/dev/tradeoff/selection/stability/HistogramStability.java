package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;

/**
 * [StabVal13, Theorem 6, appendix Section 6.3] (Stability of the private
 * histogram density estimator): for bin widths H = {h_1, …, h_k} with h_min = min h_j, training
 * size n and training privacy α, the validation score q of equation (6) is (β₁, β₂, δ)-stable for
 * Algorithm 5 with
 *
 * <pre>
 *   β₁ = 4 / ((1 − γ) h_min),   β₂ = 2 / h_min,   γ = 2 ln(4k/δ) / (n α √h_min),
 * </pre>
 *
 * provided γ &lt; 1 (the scanned statement's sample-size condition and β₁'s numerator are illegible;
 * both are re-derived from the proof, see REPRODUCTION.md).
 *
 * <p>Proof as re-checked here. Event E_h: Σ_i R_i ≥ −ln(4k/δ)/√h over the 1/h Laplace draws, with
 * Pr ≥ 1 − δ/k (Lemma 3: Pr[Σ_{i≤s} R_i &gt; θ] ≤ (1 − 1/s)^{−s} e^{−θ/√s} ≤ 4 e^{−θ/√s} for s ≥
 * 2). On E_h, n̂ = Σ max(0, n_i + noise_i) ≥ n(1 − γ) (eq. 19). Writing p = ñ/n̂ and c for the
 * validation histogram (fractions), q = (‖c‖² − ‖p − c‖²)/h, so moving one training point (ñ_a
 * drops by t_a ∈ [0, 1], ñ_b rises by t_b ∈ [0, 1]) changes q by at most 2‖p′ − p‖₁/h ≤ 4/(h
 * min(n̂, n̂′)) — this covers the fractional moves that clipping at 0 creates, which the paper's
 * four integer cases do not. Moving one validation point changes q by at most 2 max f̂ / m ≤
 * 2/(h m) (eq. 18).
 *
 * <p>Implementation constants (all rounded up): the noise is the snapped Laplace of {@link
 * DpHistogramEstimator}, of effective scale b ≥ 2/α on a lattice of spacing g. A lattice Laplace
 * draw is at least a continuous Laplace(b) draw minus g (difference of floors of exponentials), so
 * γ = (b ln(4k/δ)/√h_min + g/h_min)/n, which exceeds the paper's γ by a relative ≈ 2^−40.
 */
public final class HistogramStability {

  private HistogramStability() {}

  /**
   * The constants of Theorem 6.
   *
   * @param n the training-set size
   * @param alpha the training privacy α of Algorithm 5
   * @param binCounts 1/h for each of the k candidate widths, each ≥ 2 (Lemma 3 needs s ≥ 2)
   * @param delta δ in (0, 1)
   * @throws IllegalArgumentException if γ ≥ 1 (n too small for the theorem)
   */
  public static StabilityConstants constants(int n, double alpha, int[] binCounts, double delta) {
    double gamma = gamma(n, alpha, binCounts, delta);
    int maxBins = maxBins(binCounts);
    double oneMinusGamma = Math.nextDown(1 - gamma);
    double beta1 = Math.nextUp(4.0 * maxBins / oneMinusGamma);
    return new StabilityConstants(beta1, 2.0 * maxBins, delta);
  }

  /**
   * γ of Theorem 6 for Tradeoff's noise (see the class documentation), rounded up.
   *
   * @throws IllegalArgumentException if γ ≥ 1
   */
  public static double gamma(int n, double alpha, int[] binCounts, double delta) {
    Require.positive("n", n);
    Require.positive("alpha", alpha);
    Require.openUnit("delta", delta);
    int maxBins = maxBins(binCounts);
    LaplaceMechanism noise = DpHistogramEstimator.noise(alpha);
    double b = Math.nextUp(noise.scale());
    double g = noise.noise().grid().granularity();
    double log = Math.nextUp(Math.log(4.0 * binCounts.length / delta));
    double shortfall = Math.nextUp(Math.nextUp(b * log * Math.nextUp(Math.sqrt(maxBins)))
        + g * maxBins);
    double gamma = Math.nextUp(shortfall / n);
    if (!(gamma < 1)) {
      throw new IllegalArgumentException("Theorem 6 needs gamma = 2 ln(4k/delta)/(n alpha sqrt(h_min))"
          + " < 1, but gamma was " + gamma + " for n = " + n + ", alpha = " + alpha + ", k = "
          + binCounts.length + ", h_min = 1/" + maxBins + ": use more training data");
    }
    return gamma;
  }

  /** The paper's γ = 2 ln(4k/δ)/(n α √h_min) for exact continuous Laplace noise (no rounding). */
  public static double paperGamma(int n, double alpha, double hMin, int k, double delta) {
    Require.positive("n", n);
    Require.positive("alpha", alpha);
    Require.positive("hMin", hMin);
    Require.positive("k", k);
    Require.openUnit("delta", delta);
    return 2 * Math.log(4 * k / delta) / (n * alpha * Math.sqrt(hMin));
  }

  private static int maxBins(int[] binCounts) {
    Require.nonNull("binCounts", binCounts);
    Require.that(binCounts.length > 0, "binCounts", "must not be empty", "[]");
    int max = 0;
    for (int i = 0; i < binCounts.length; i++) {
      Require.that(binCounts[i] >= 2, "binCounts[" + i + "]",
          "must be >= 2 (h <= 1/2, Lemma 3)", binCounts[i]);
      max = Math.max(max, binCounts[i]);
    }
    return max;
  }
}
