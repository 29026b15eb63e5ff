package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.sampling.Exponential;
import java.util.random.RandomGenerator;

/**
 * [StabVal13, Algorithm 1], private validation (reconstructed from the proofs
 * of Lemmas 1–2 and Theorems 1 and 3 in the appendix): given the validation scores s_i = q(f_i, V)
 * of k privately trained candidates, output i* = argmax_i (s_i + Z_i) with Z_i iid exponential of
 * rate α₂/(2β), β = max(β₁/n, β₂/m).
 *
 * <p>Theorem 1: if q is (β₁, β₂, δ)-stable for the training procedure, the output i* is (α₂,
 * δ)-differentially private with respect to one individual of the training set or of the
 * validation set. Theorem 3: with probability ≥ 1 − δ₀ the chosen score is within 2β ln(k/δ₀)/α₂
 * of the best.
 *
 * <p>The scores themselves are not private: only the index may be released.
 */
public final class StabilityValidation {

  private StabilityValidation() {}

  /**
   * Algorithm 1, step 3–4: the index of the noisy maximum.
   *
   * @param scores the k scores q(f_i, V) (finite)
   * @param beta the stability β of the scores ({@link StabilityConstants#beta}) &gt; 0
   * @param alpha2 the validation privacy parameter α₂ &gt; 0
   */
  public static int select(double[] scores, double beta, double alpha2, RandomGenerator random) {
    double[] s = Require.finiteValues("scores", scores);
    Exponential noise = new Exponential(noiseRate(beta, alpha2));
    Require.nonNull("random", random);
    int best = -1;
    double bestValue = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < s.length; i++) {
      double v = s[i] + noise.sample(random);
      if (v > bestValue) {
        best = i;
        bestValue = v;
      }
    }
    return best;
  }

  /**
   * The rate α₂/(2β) of the exponential noise, rounded down (more noise is the safe direction).
   */
  public static double noiseRate(double beta, double alpha2) {
    Require.positive("beta", beta);
    Require.positive("alpha2", alpha2);
    return Math.nextDown(alpha2 / (2 * beta));
  }

  /** Theorem 1: the guarantee of the selected index, (α₂, δ)-DP. */
  public static ApproxDp guarantee(double alpha2, StabilityConstants stability) {
    Require.positive("alpha2", alpha2);
    Require.nonNull("stability", stability);
    return new ApproxDp(alpha2, stability.delta());
  }

  /**
   * Theorem 3: with probability ≥ 1 − δ₀, q(f_{i*}, V) ≥ max_i q(f_i, V) − 2β ln(k/δ₀)/α₂. Returns
   * that gap (rounded up).
   *
   * @param k the number of candidates
   * @param delta0 δ₀ in (0, 1)
   */
  public static double utilityGap(double beta, int k, double alpha2, double delta0) {
    Require.positive("beta", beta);
    Require.positive("k", k);
    Require.positive("alpha2", alpha2);
    Require.openUnit("delta0", delta0);
    return Math.nextUp(2 * beta * Math.log(k / delta0) / alpha2);
  }
}
