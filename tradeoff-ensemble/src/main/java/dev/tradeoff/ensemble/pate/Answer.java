package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.internal.Require;

/**
 * What an aggregator released for one query: a class from the teachers, an explicit abstention, or
 * (Interactive-GNMax) the student's own class.
 */
public sealed interface Answer {

  /** The class released. */
  record Labelled(int label) implements Answer {
    public Labelled {
      Require.nonNegative("label", label);
    }
  }

  /** The noisy threshold check of Confident-GNMax failed: no label is released. */
  record Abstained() implements Answer {}

  /**
   * Interactive-GNMax's second branch (Papernot et al. 2018, Algorithm 2): the teachers agree with
   * the student, whose own confident prediction is released; no teacher vote is used beyond the
   * threshold check.
   */
  record Reinforced(int label) implements Answer {
    public Reinforced {
      Require.nonNegative("label", label);
    }
  }
}
