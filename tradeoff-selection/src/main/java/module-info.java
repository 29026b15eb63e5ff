/**
 * Ex-post private hyperparameter tuning, AboveThreshold variants, privacy filters and stability
 * validation; {@code dev.tradeoff.selection.command} tunes a user's training command from a plan
 * read with Jackson.
 */
module dev.tradeoff.selection {
  requires transitive dev.tradeoff.accounting;
  requires transitive dev.tradeoff.mechanisms;
  requires com.fasterxml.jackson.databind;
  requires org.apache.commons.numbers.gamma;
  requires org.apache.commons.rng.api;
  requires org.apache.commons.statistics.distribution;

  exports dev.tradeoff.selection.baseline;
  exports dev.tradeoff.selection.command;
  exports dev.tradeoff.selection.expost;
  exports dev.tradeoff.selection.filter;
  exports dev.tradeoff.selection.stability;
}
