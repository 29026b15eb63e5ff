/** The shuffle-model sum [ShuffleGDP21, Algorithm 3] as a Beam transform. */
package dev.tradeoff.beam.shuffle;
