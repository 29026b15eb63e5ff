package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.Require;

/** What an aggregator released for one query: a class, or an explicit abstention. */
public sealed interface Answer {

  /** The class released. */
  record Labelled(int label) implements Answer {
    public Labelled {
      Require.nonNegative("label", label);
    }
  }

  /** The noisy threshold check of Confident-GNMax failed: no label is released. */
  record Abstained() implements Answer {}
}
