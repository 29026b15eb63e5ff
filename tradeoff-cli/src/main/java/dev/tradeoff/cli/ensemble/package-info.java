/**
 * {@code tradeoff ensemble}: DaRRM private majority ensembling (optimize, verify, aggregate,
 * baselines, plots).
 */
package dev.tradeoff.cli.ensemble;
