/** Beam coders for Tradeoff values. */
package dev.tradeoff.beam.coder;
