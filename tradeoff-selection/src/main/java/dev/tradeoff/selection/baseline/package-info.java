/**
 * Tuning and utility-first baselines with their own accounting: Liu–Talwar random stopping (3ε),
 * Papernot–Steinke truncated negative binomial and Poisson repetition (RDP), the doubling method
 * (every attempt composed) and Laplace noise reduction (only the last released level paid).
 */
package dev.tradeoff.selection.baseline;
