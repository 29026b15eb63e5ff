package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.majority.PrivateMajority;

/**
 * The plurality of the K teachers' votes, without noise: the class with the most votes, the lowest
 * class index among ties. A deterministic function of the votes, so its labels are exactly as
 * private as the teachers ({@link Aggregator#DP_MAJORITY}: post-processing of DP models).
 *
 * @param classes the number of classes C; votes are in [0, C)
 */
public record Plurality(int classes) implements PrivateMajority.QueryMajority {

  private static final long serialVersionUID = 1L;

  public Plurality {
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
  }

  @Override
  public int label(String id, int[] votes) {
    int[] counts = new int[classes];
    for (int vote : votes) {
      counts[vote]++;
    }
    int best = 0;
    for (int c = 1; c < classes; c++) {
      if (counts[c] > counts[best]) {
        best = c;
      }
    }
    return best;
  }
}
