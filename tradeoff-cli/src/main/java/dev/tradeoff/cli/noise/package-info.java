/**
 * {@code tradeoff noise}: release values with a chosen mechanism.
 */
package dev.tradeoff.cli.noise;
