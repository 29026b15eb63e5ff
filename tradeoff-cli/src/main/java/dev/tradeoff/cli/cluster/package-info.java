/**
 * {@code tradeoff cluster}: start and stop a local Flink session cluster.
 */
package dev.tradeoff.cli.cluster;
