/**
 * {@code tradeoff cluster}: start and stop a local Flink session or Spark standalone
 * cluster.
 */
package dev.tradeoff.cli.cluster;
