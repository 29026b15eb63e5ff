/** Secure samplers and the standard mechanisms, each stating its guarantee as a value. */
module dev.tradeoff.mechanisms {
  requires transitive dev.tradeoff.accounting;

  exports dev.tradeoff.mechanisms;
  exports dev.tradeoff.mechanisms.gaussian;
  exports dev.tradeoff.mechanisms.laplace;
  exports dev.tradeoff.mechanisms.random;
  exports dev.tradeoff.mechanisms.response;
  exports dev.tradeoff.mechanisms.sampling;
  exports dev.tradeoff.mechanisms.selection;
  exports dev.tradeoff.mechanisms.sparsevector;
}
