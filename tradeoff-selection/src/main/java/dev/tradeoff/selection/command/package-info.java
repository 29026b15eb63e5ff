/**
 * Private tuning of a user's own training command ([ExPost25], Algorithm 3 with Theorem 11 or
 * 13): a {@link dev.tradeoff.selection.command.TuningPlan} of shell-command candidates, each
 * declaring its privacy up front and reporting its score, run by {@link
 * dev.tradeoff.selection.command.CommandTuning} with or without a budget store.
 */
package dev.tradeoff.selection.command;
