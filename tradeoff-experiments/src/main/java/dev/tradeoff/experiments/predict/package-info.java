/** Private semi-supervised knowledge transfer, DaRRM paper Section 6.2, on Beam. */
package dev.tradeoff.experiments.predict;
