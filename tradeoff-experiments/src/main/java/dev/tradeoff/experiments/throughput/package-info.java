/** Throughput measurement of the private majority on Beam runners. */
package dev.tradeoff.experiments.throughput;
