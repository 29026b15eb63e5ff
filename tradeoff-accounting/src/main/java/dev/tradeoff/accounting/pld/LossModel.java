package dev.tradeoff.accounting.pld;

/**
 * The privacy loss L = log(dP/dQ) of a dominating pair (P, Q), in a form {@link Discretizer} can put
 * on a grid: finitely many outcomes, or a loss that is a monotone function of a real variable x
 * with known P-density (plus atoms).
 */
sealed interface LossModel permits Outcomes, MonotoneLoss {}
