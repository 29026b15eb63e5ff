/**
 * {@code tradeoff shuffle}: the shuffled Gaussian sum, its analysis and plots.
 */
package dev.tradeoff.cli.shuffle;
