/**
 * A real multi-process engine cluster on loopback for the Beam jobs: a Flink session cluster
 * started from the Maven Central artifacts the Flink runner resolves, and stopped exactly.
 */
package dev.tradeoff.beam.cluster;
