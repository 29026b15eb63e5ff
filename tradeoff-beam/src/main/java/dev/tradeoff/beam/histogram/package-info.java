/** Differentially private histograms over a public key domain with contribution bounding. */
package dev.tradeoff.beam.histogram;
