/**
 * Composition of (ε, δ)-differential-privacy guarantees and the accountants built on it.
 *
 * <ul>
 *   <li>{@link dev.tradeoff.accounting.composition.BasicComposition}: (Σε, Σδ) (Dwork et al. 2014;
 *       [DaRRM24, Theorem 2.2]).
 *   <li>{@link dev.tradeoff.accounting.composition.KairouzComposition}: the closed-form "general
 *       composition" of Kairouz, Oh and Viswanath (2015), Theorems 3.4 and 3.5, exactly as the
 *       [DaRRM24] states it (its Theorem 2.3).
 *   <li>{@link dev.tradeoff.accounting.composition.OptimalComposition}: the exact optimal k-fold
 *       composition of identical (ε, δ) mechanisms (Kairouz, Oh and Viswanath 2015, Theorem 3.3),
 *       with the full optimal profile δ(ε′) at every ε′ ≥ 0.
 *   <li>{@link dev.tradeoff.accounting.composition.PrivacyAllowance}: the privacy allowance m (and
 *       τ, λ) of [DaRRM24, Appendix D.1.1].
 *   <li>{@link dev.tradeoff.accounting.composition.WithoutReplacementAmplification}: (ε, δ) →
 *       (log(1 + γ(e^ε − 1)), γδ) for sampling without replacement under replace-one (Balle, Barthe
 *       and Gaboardi 2018, Theorem 9).
 *   <li>The accountants {@link dev.tradeoff.accounting.composition.BasicAccountant}, {@link
 *       dev.tradeoff.accounting.composition.KairouzAccountant} and {@link
 *       dev.tradeoff.accounting.composition.OptimalAccountant}.
 * </ul>
 *
 * <p>Rounding: every ε and δ returned here is an upper bound on the exact value of the formula it
 * implements; floating-point results are rounded up by a stated relative margin.
 */
package dev.tradeoff.accounting.composition;
