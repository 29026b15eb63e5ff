/**
 * DP-SGD (Abadi et al. 2016) with Poisson subsampling for logistic regression, whose (ε, δ) is
 * computed by the accounting module's PLD or RDP accountant from (σ, q, T, δ), and the reverse
 * calibration of σ for a target (ε, δ).
 */
package dev.tradeoff.learning.dpsgd;
