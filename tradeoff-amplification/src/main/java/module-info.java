/** Privacy amplification by Bernoulli sampling [BernAmp21], as certified intervals. */
module dev.tradeoff.amplification {
  requires transitive dev.tradeoff.accounting;

  exports dev.tradeoff.amplification.bernoulli;
}
