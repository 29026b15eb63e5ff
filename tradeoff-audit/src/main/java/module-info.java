/** The statistical privacy auditor: lower bounds on ε from samples of a mechanism's outputs. */
module dev.tradeoff.audit {
  requires transitive dev.tradeoff.accounting;
  requires org.apache.commons.statistics.distribution;

  exports dev.tradeoff.audit;
}
