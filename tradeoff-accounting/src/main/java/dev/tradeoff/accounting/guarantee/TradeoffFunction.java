package dev.tradeoff.accounting.guarantee;

/**
 * A trade-off function in the sense of f-differential privacy (Dong, Roth and Su 2022; shuffle
 * paper, Definition 2.1): f(α) is the smallest type-II error of any test between M(D) and M(D′) at
 * type-I error α. A valid trade-off function is convex, continuous, non-increasing and satisfies
 * f(α) ≤ 1 − α.
 */
public non-sealed interface TradeoffFunction extends PrivacyGuarantee {

  /** The smallest type-II error β at type-I error α in [0, 1]. */
  double beta(double alpha);
}
