/**
 * Output perturbation for regularised logistic regression (Chaudhuri, Monteleoni and Sarwate 2011,
 * Algorithm 1; the stability-based private validation appendix, Algorithm 4 and Theorem 4): pure
 * ε-DP with Gamma-norm noise, (ε, δ)-DP with Gaussian noise, and the stability constants.
 */
package dev.tradeoff.learning.perturbation;
