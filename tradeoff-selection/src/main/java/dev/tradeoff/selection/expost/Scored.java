package dev.tradeoff.selection.expost;

/**
 * What one run of a candidate mechanism returns: a score in the totally ordered output set of the
 * DP selection problem [ExPost25, Section 2] and the artefact it scores (a model, an
 * estimate).
 *
 * @param <O> the artefact type
 * @param score the score; larger is better; any double except NaN (±∞ allowed)
 * @param output the artefact, may be null
 */
public record Scored<O>(double score, O output) {

  public Scored {
    if (Double.isNaN(score)) {
      throw new IllegalArgumentException("score must not be NaN, but was NaN");
    }
  }
}
