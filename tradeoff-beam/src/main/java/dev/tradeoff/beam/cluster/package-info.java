/**
 * Real multi-process engine clusters on loopback for the Beam jobs: a Flink session cluster
 * ({@link dev.tradeoff.beam.cluster.FlinkSessionCluster}) and a Spark standalone cluster
 * ({@link dev.tradeoff.beam.cluster.SparkStandaloneCluster}), started from the Maven Central
 * artifacts their Beam runners resolve, recorded as a {@link dev.tradeoff.beam.cluster.LocalCluster}
 * and stopped exactly.
 */
package dev.tradeoff.beam.cluster;
