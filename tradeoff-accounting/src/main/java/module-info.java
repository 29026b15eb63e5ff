/**
 * Guarantees as values, privacy events, accountants, conversions and numerics. The package
 * {@code dev.tradeoff.accounting.internal} holds the shared precondition helper {@code Require} and
 * the message escaping {@code Shown}; it is not API: it is exported only to the other Tradeoff
 * modules and left out of the Javadoc.
 */
module dev.tradeoff.accounting {
  requires org.apache.commons.numbers.combinatorics;
  requires org.apache.commons.numbers.gamma;
  requires org.apache.commons.statistics.distribution;

  exports dev.tradeoff.accounting.accountant;
  exports dev.tradeoff.accounting.budget;
  exports dev.tradeoff.accounting.calibration;
  exports dev.tradeoff.accounting.composition;
  exports dev.tradeoff.accounting.conversion;
  exports dev.tradeoff.accounting.event;
  exports dev.tradeoff.accounting.fdp;
  exports dev.tradeoff.accounting.gdp;
  exports dev.tradeoff.accounting.guarantee;
  exports dev.tradeoff.accounting.methods;
  exports dev.tradeoff.accounting.numerics;
  exports dev.tradeoff.accounting.pld;
  exports dev.tradeoff.accounting.rdp;
  exports dev.tradeoff.accounting.zcdp;
  exports dev.tradeoff.accounting.internal to
      dev.tradeoff.ledger,
      dev.tradeoff.mechanisms,
      dev.tradeoff.audit,
      dev.tradeoff.amplification,
      dev.tradeoff.shuffle,
      dev.tradeoff.learning,
      dev.tradeoff.ensemble,
      dev.tradeoff.selection,
      dev.tradeoff.beam;
}
