/**
 * PATE aggregation of teacher vote histograms over a Beam collection (Papernot et al. 2018:
 * GNMax, Confident-GNMax, Interactive-GNMax, and the smooth-sensitivity release of the
 * data-dependent RDP), giving the labels and guarantees of the in-memory {@code
 * dev.tradeoff.ensemble.pate} path on every runner.
 */
package dev.tradeoff.beam.pate;
