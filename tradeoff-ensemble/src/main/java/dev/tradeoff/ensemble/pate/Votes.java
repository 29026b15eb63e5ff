package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * One query's teacher votes: n_j, the number of teachers that predicted class j (the vote
 * histogram of Papernot et al., <i>Scalable private learning with PATE</i>, ICLR 2018, Section 2).
 *
 * @param id the query's identifier (non-blank)
 * @param counts n_j ≥ 0 per class, at least two classes (copied)
 */
public record Votes(String id, int[] counts) {

  public Votes {
    Require.nonNull("id", id);
    Require.that(!id.isBlank(), "id", "must not be blank", "'" + id + "'");
    Require.nonNull("counts", counts);
    Require.that(counts.length >= 2, "classes", "must be >= 2", counts.length);
    counts = counts.clone();
    for (int j = 0; j < counts.length; j++) {
      Require.that(counts[j] >= 0, "counts[" + j + "] of query " + id, "must be >= 0",
          counts[j]);
    }
  }

  /** The counts (a copy). */
  @Override
  public int[] counts() {
    return counts.clone();
  }

  /** n_j. */
  public int count(int j) {
    return counts[j];
  }

  /** The number of classes. */
  public int classes() {
    return counts.length;
  }

  /** Σ_j n_j: the number of teachers that voted. */
  public long teachers() {
    long sum = 0;
    for (int c : counts) {
      sum += c;
    }
    return sum;
  }

  /** max_j n_j. */
  public int maxCount() {
    return Arrays.stream(counts).max().orElseThrow();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Votes v && id.equals(v.id) && Arrays.equals(counts, v.counts);
  }

  @Override
  public int hashCode() {
    return 31 * id.hashCode() + Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    return "Votes[" + id + ", " + Arrays.toString(counts) + "]";
  }
}
