package dev.tradeoff.selection.expost;

/**
 * The result of one execution of a random-dropping tuner: the released outcome and how many
 * candidate runs it took (the number of candidates not dropped; for Algorithm 2, those run before it
 * stopped). Only {@code outcome} is the mechanism's output; the run count is data-independent for
 * Algorithm 3 (its law depends on ε′ and the ε_i only) and is reported for cost accounting.
 *
 * @param <O> the artefact type
 * @param outcome the released (o, i) or ⊥
 * @param runs the number of candidate invocations
 */
public record TuningRun<O>(TuningOutcome<O> outcome, int runs) {}
