/**
 * Private labelling of a user's own data: PATE-style knowledge transfer (Papernot et al., ICLR
 * 2018) with DaRRM's private majority (Zhang, Jagielski et al., <i>Private majority ensembling</i>,
 * TMLR 2024, Sections 5–6) or GNMax, as one Beam job ({@link dev.tradeoff.beam.label.LabelJob}):
 * CSV in through {@code TextIO}, K teachers on keyed-hash partitions, the private majority per
 * query, labels out through {@code TextIO}, the guarantee charged before anything is committed.
 */
package dev.tradeoff.beam.label;
