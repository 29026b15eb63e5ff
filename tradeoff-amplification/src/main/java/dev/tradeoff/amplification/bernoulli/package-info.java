/**
 * Privacy amplification by Bernoulli sampling [BernAmp21]: how much Rényi privacy is left when an (α, ε)-RDP parameter θ ∈ [c, 1 − c]^d
 * is released only through k Bernoulli samples drawn from it.
 *
 * <p>Everything is computed in log space, so no curve stops where the paper's did (its plain-double
 * evaluation overflows once (α − 1)·ε exceeds about 709).
 */
package dev.tradeoff.amplification.bernoulli;
