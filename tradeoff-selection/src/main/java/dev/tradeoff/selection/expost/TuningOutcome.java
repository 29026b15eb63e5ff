package dev.tradeoff.selection.expost;

import java.util.Comparator;

/**
 * An outcome of [ExPost25, Algorithms 2 and 3]: a pair (o, i) or ⊥. Section 4 extends the
 * order on outputs to (𝒪 × [d]) ∪ {⊥}: ⊥ is the minimum and pairs are ordered lexicographically,
 * first by the score o, then by the candidate index i (so among equal scores the later candidate
 * wins). Indices here are 0-based.
 *
 * @param <O> the artefact type
 */
public sealed interface TuningOutcome<O> permits TuningOutcome.Selected, TuningOutcome.None {

  /** The pair (o, i): candidate {@code index} produced {@code result}. */
  record Selected<O>(Scored<O> result, int index) implements TuningOutcome<O> {}

  /** ⊥: no candidate survived the dropping (or, for Algorithm 2, none cleared the threshold). */
  record None<O>() implements TuningOutcome<O> {}

  /** The paper's total order: ⊥ lowest, then (score, index) lexicographically. */
  static <O> Comparator<TuningOutcome<O>> order() {
    return (a, b) -> {
      if (a instanceof None<O>) {
        return b instanceof None<O> ? 0 : -1;
      }
      if (b instanceof None<O>) {
        return 1;
      }
      Selected<O> x = (Selected<O>) a;
      Selected<O> y = (Selected<O>) b;
      int c = Double.compare(x.result().score(), y.result().score());
      return c != 0 ? c : Integer.compare(x.index(), y.index());
    };
  }
}
