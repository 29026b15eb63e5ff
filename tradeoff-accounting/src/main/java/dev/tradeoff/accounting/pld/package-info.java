/**
 * Numerical privacy-loss-distribution (PLD) accounting: {@link
 * dev.tradeoff.accounting.pld.PldAccountant} discretizes each mechanism's dominating pair on a
 * loss grid (pessimistic "connect the dots" of Doroshenko et al. 2022 and an optimistic garbling
 * counterpart), composes by FFT convolution (Sommer, Meiser and Mohammadi 2019; Koskela, Jälkö and
 * Honkela 2020) and answers δ(ε) and ε(δ) as bounds whose numerical errors (quadrature margin,
 * truncated tails, FFT aliasing and round-off) are all folded in on the safe side.
 */
package dev.tradeoff.accounting.pld;
