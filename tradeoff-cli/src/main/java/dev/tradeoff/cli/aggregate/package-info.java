/**
 * {@code tradeoff aggregate}: private aggregation of teacher votes (GNMax, Confident-GNMax) into
 * labels.
 */
package dev.tradeoff.cli.aggregate;
