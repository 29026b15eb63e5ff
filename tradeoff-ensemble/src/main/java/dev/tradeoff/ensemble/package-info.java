/**
 * Private majority ensembling with DaRRM [DaRRM24]: noise functions γ ({@code noise}), the exact privacy
 * verifier of Lemmas 3.4 and 5.1 ({@code privacy}), the LP optimiser of Section 5 ({@code
 * optimize}), utility ({@code utility}) and Algorithm 1 itself ({@code aggregate}).
 */
package dev.tradeoff.ensemble;
