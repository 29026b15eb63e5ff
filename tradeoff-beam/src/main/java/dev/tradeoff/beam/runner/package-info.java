/** The Beam runners the pipelines run on (Direct, Spark local, embedded Flink) and collecting small results on any runner. */
package dev.tradeoff.beam.runner;
