package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * A composed guarantee expressed as a multiple of the per-mechanism ε, in the vocabulary of the
 * [DaRRM24]: the
 * majority of {@code count} (ε, Δ)-DP mechanisms is (multiplier · ε, delta)-DP.
 *
 * <p>Appendix D.1.1 of [DaRRM24] uses it twice, both times with general composition (its
 * Theorem 2.3, {@link KairouzComposition}):
 *
 * <ul>
 *   <li>the <b>privacy allowance</b> m of M subsampled mechanisms: m = ε_opt / ε and δ = 1 − (1 −
 *       Δ)^M (1 − δ′) (the paper prints (1 − δ)^M; Δ is meant, as its Table 3 confirms);
 *   <li>the parameters <b>τ</b> and <b>λ</b> of the randomized-response baseline (Appendix A.1,
 *       Lemma A.1) for all K mechanisms: τ = ε̃/ε and λ = 1 − (1 − Δ)^K (1 − δ′).
 * </ul>
 *
 * With K = 35, ε = 0.1, Δ = 1e-5, δ′ = 0.1 this gives m = 6.4521, 7.5742, 8.2708, 9.8823 for M =
 * 10, 13, 15, 20 and τ = 14.0328, λ = 0.1003 [DaRRM24, Table 3]. Lemma A.1's pure case (Δ = 0, simple
 * composition: τ = K, λ = 0) is {@link #simpleComposition}.
 *
 * @param multiplier m (or τ) ≥ 0: the composed ε divided by the per-mechanism ε, rounded up
 * @param epsilon the composed ε = m · ε, rounded up
 * @param delta the composed δ (or λ), rounded up
 */
public record PrivacyAllowance(double multiplier, double epsilon, double delta) {

  public PrivacyAllowance {
    Require.nonNegative("multiplier", multiplier);
    Require.nonNegative("epsilon", epsilon);
    Require.delta("delta", delta);
  }

  /**
   * m (or τ) and δ (or λ) of {@code count} (ε, Δ) mechanisms by general composition ([DaRRM24,
   * Theorem 2.3]) with slack δ′, as in [DaRRM24, Appendix D.1.1].
   *
   * @param perMechanism (ε, Δ) with ε &gt; 0
   * @param count M or K ≥ 1
   * @param deltaSlack δ′ in (0, 1)
   */
  public static PrivacyAllowance generalComposition(
      ApproxDp perMechanism, int count, double deltaSlack) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("epsilon", perMechanism.epsilon());
    ApproxDp composed = KairouzComposition.compose(perMechanism, count, deltaSlack);
    return fromComposed(perMechanism, composed);
  }

  /**
   * τ = count and λ = count · Δ by simple composition ([DaRRM24, Theorem 2.2]; Lemma A.1 uses it with Δ
   * = 0, giving τ = K, λ = 0).
   *
   * @param perMechanism (ε, Δ) with ε &gt; 0
   * @param count K ≥ 1
   */
  public static PrivacyAllowance simpleComposition(ApproxDp perMechanism, int count) {
    Require.nonNull("perMechanism", perMechanism);
    Require.positive("epsilon", perMechanism.epsilon());
    return fromComposed(perMechanism, BasicComposition.compose(perMechanism, count));
  }

  private static PrivacyAllowance fromComposed(ApproxDp perMechanism, ApproxDp composed) {
    double multiplier = Math.nextUp(composed.epsilon() / perMechanism.epsilon());
    return new PrivacyAllowance(multiplier, composed.epsilon(), composed.delta());
  }
}
