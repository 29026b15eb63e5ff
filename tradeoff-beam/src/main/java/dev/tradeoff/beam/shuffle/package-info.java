/** The shuffle-model sum (Chen and Long, Algorithm 3) as a Beam transform. */
package dev.tradeoff.beam.shuffle;
