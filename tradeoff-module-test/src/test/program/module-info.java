/**
 * A program that reads every Tradeoff library module but tradeoff-beam (Beam 2.62's jars split
 * packages, so Beam runs from the class path only), as a user's module would.
 */
module example.modules {
  requires dev.tradeoff.accounting;
  requires dev.tradeoff.ledger;
  requires dev.tradeoff.mechanisms;
  requires dev.tradeoff.audit;
  requires dev.tradeoff.amplification;
  requires dev.tradeoff.shuffle;
  requires dev.tradeoff.ensemble;
  requires dev.tradeoff.selection;
  requires dev.tradeoff.learning;
}
