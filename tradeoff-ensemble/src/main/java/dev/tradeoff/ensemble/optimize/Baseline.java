package dev.tradeoff.ensemble.optimize;

import dev.tradeoff.accounting.composition.PrivacyAllowance;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;

/**
 * The baseline noise functions DaRRM is compared with (Section 6.1, Appendix D.1), each certified
 * by the exact verifier for the setting (and scaled down if it fails, e.g. γ_DSub when Δ &gt; 0,
 * where Theorem 4.1 does not apply).
 */
public enum Baseline {
  /** γ_Sub of Lemma 3.1 for a subsample of ⌊m⌋ teachers. */
  SUBSAMPLING,
  /** γ_DSub of Theorem 4.1 for ⌊m⌋ (pure DP). */
  DOUBLE_SUBSAMPLING,
  /**
   * The constant γ of classical randomized response, Lemma A.1 with τ, λ of the K teachers by
   * simple composition (τ = K, λ = KΔ, capped below 1).
   */
  RANDOMIZED_RESPONSE,
  /**
   * The largest constant γ the exact verifier certifies: f is linear in γ (Lemma 3.4), so it is
   * min(1, bound / max f(γ ≡ 1)), which {@link #certified} reaches by scaling γ ≡ 1 (no bisection
   * needed; it does not use the verifier's tolerance). Lemma A.1's constant is a sufficient
   * condition and can be several times smaller (0.2975 against 0.8720 for K = 11, ε = 0.1, m = 3,
   * Δ = 1e-5).
   */
  LARGEST_CERTIFIED_CONSTANT;

  /** The uncertified γ of this baseline for the setting. */
  public NoiseFunction gamma(DarrmSetting s) {
    Require.nonNull("setting", s);
    int k = s.teachers();
    int m = (int) Math.floor(s.allowance());
    return switch (this) {
      case SUBSAMPLING -> NoiseFunction.subsampling(k, m);
      case DOUBLE_SUBSAMPLING -> NoiseFunction.doubleSubsampling(k, m);
      case RANDOMIZED_RESPONSE -> {
        double lambda = Math.min(Math.nextDown(1.0), k * s.teacherDelta());
        PrivacyAllowance majority = new PrivacyAllowance(k, k * s.epsilon(), lambda);
        yield NoiseFunction.randomizedResponse(k, s.allowance() * s.epsilon(), s.delta(),
            majority.epsilon(), majority.delta());
      }
      case LARGEST_CERTIFIED_CONSTANT -> NoiseFunction.constant(k, 1);
    };
  }

  /** The γ certified by the verifier (scaled down if it fails). */
  public PrivacyVerifier.Certified certified(PrivacyVerifier verifier) {
    return verifier.certifyOrScale(gamma(verifier.setting()));
  }
}
