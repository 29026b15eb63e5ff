/**
 * PATE-style teachers (Papernot et al. 2017) for [DaRRM24, Section 6.2]: K teachers on K
 * disjoint seeded shards, each non-private, DP-SGD or output-perturbation trained with its
 * guarantee, their 0/1 vote matrix on query points, and a progress hook.
 */
package dev.tradeoff.learning.teachers;
