/**
 * {@code tradeoff label} and {@code tradeoff predict}: private labels for a user's queries and
 * the teachers' predictions.
 */
package dev.tradeoff.cli.label;
