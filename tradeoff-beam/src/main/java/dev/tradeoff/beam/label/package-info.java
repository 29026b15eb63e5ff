/**
 * Private labelling of a user's own data: PATE-style knowledge transfer ([PSMRTE18]) with DaRRM's
 * private majority ([DaRRM24, Sections 5–6]) or GNMax, as one Beam job
 * ({@link dev.tradeoff.beam.label.LabelJob}):
 * training CSV in through {@code TextIO}, K teachers on keyed-hash partitions, query CSV in
 * through {@code FileIO} in byte ranges, the private majority per query, labels out through Beam's
 * file systems, the guarantee charged before anything is committed.
 */
package dev.tradeoff.beam.label;
