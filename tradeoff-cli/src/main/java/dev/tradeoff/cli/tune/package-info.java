/**
 * {@code tradeoff tune}: private hyperparameter tuning of a user's training command.
 */
package dev.tradeoff.cli.tune;
