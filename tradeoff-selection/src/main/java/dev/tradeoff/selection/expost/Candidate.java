package dev.tradeoff.selection.expost;

import java.util.random.RandomGenerator;

/**
 * A candidate mechanism M_i of the selection problem [ExPost25, Section 2]: arbitrary user
 * code, closed over the private dataset, that runs once with the randomness it is given and returns
 * a score and an output. Its privacy guarantee is stated next to it ({@link PureDpCandidate},
 * {@link RdpCandidate}); the tuners trust that statement.
 *
 * @param <O> the artefact type
 */
@FunctionalInterface
public interface Candidate<O> {

  /** One run of the mechanism. */
  Scored<O> run(RandomGenerator random);
}
