/**
 * {@code tradeoff amplify}: privacy amplification by Bernoulli sampling, values and plots.
 */
package dev.tradeoff.cli.amplify;
