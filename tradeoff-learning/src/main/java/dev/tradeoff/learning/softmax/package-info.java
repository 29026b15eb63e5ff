/**
 * Multinomial logistic (softmax) regression for C-class teachers: the model, the L2-regularised
 * cross-entropy objective, a deterministic non-private L-BFGS solver, and DP-SGD (Abadi et al. 2016)
 * whose one joint clip of the C×d gradient makes all C classes cost one DP-SGD run.
 */
package dev.tradeoff.learning.softmax;
