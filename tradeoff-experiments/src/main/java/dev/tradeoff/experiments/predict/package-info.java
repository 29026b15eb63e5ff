/** Private semi-supervised knowledge transfer, [DaRRM24, Section 6.2], on Beam. */
package dev.tradeoff.experiments.predict;
