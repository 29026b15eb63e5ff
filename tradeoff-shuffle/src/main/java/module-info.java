/** Shuffle-model summation protocols and their exact f-DP analysis [ShuffleGDP21]. */
module dev.tradeoff.shuffle {
  requires transitive dev.tradeoff.accounting;

  exports dev.tradeoff.shuffle.analysis;
  exports dev.tradeoff.shuffle.protocol;
}
