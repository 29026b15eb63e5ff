/** Private majority of teacher ensembles per query: DaRRM [DaRRM24] and GNMax (Papernot et al. 2018). */
package dev.tradeoff.beam.majority;
