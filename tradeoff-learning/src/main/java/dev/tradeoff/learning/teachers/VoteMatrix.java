package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.internal.Require;

/**
 * The 0/1 votes of K teachers on Q queries: vote(q, t) is teacher t's predicted label for query q.
 * {@link #ones(int)} is the number of teachers voting 1, the sum L(D) that the majority of
 * [DaRRM24, Algorithm 1] thresholds at K/2.
 */
public final class VoteMatrix {

  private final int queries;
  private final int teachers;
  private final byte[] votes;

  /**
   * @param votes Q rows of K votes, each 0 or 1 (copied)
   */
  public static VoteMatrix of(int[][] votes) {
    Require.nonNull("votes", votes);
    Require.positive("votes.length", votes.length);
    int k = Require.nonNull("votes[0]", votes[0]).length;
    Require.positive("votes[0].length", k);
    byte[] flat = new byte[votes.length * k];
    for (int q = 0; q < votes.length; q++) {
      Require.that(votes[q] != null && votes[q].length == k, "votes[" + q + "].length",
          "must equal " + k, votes[q] == null ? null : votes[q].length);
      for (int t = 0; t < k; t++) {
        flat[q * k + t] = (byte) Require.inClosedRange("votes[" + q + "][" + t + "]", votes[q][t], 0, 1);
      }
    }
    return new VoteMatrix(votes.length, k, flat);
  }

  VoteMatrix(int queries, int teachers, byte[] votes) {
    this.queries = queries;
    this.teachers = teachers;
    this.votes = votes;
  }

  /** Q, the number of queries. */
  public int queries() {
    return queries;
  }

  /** K, the number of teachers. */
  public int teachers() {
    return teachers;
  }

  /** Teacher t's vote on query q, 0 or 1. */
  public int vote(int query, int teacher) {
    Require.inClosedRange("query", query, 0, queries - 1);
    Require.inClosedRange("teacher", teacher, 0, teachers - 1);
    return votes[query * teachers + teacher];
  }

  /** The votes on query q, one per teacher. */
  public int[] row(int query) {
    Require.inClosedRange("query", query, 0, queries - 1);
    int[] row = new int[teachers];
    for (int t = 0; t < teachers; t++) {
      row[t] = votes[query * teachers + t];
    }
    return row;
  }

  /** The number of teachers voting 1 on query q, in [0, K]. */
  public int ones(int query) {
    Require.inClosedRange("query", query, 0, queries - 1);
    int s = 0;
    for (int t = 0; t < teachers; t++) {
      s += votes[query * teachers + t];
    }
    return s;
  }

  /** {@link #ones(int)} for every query. */
  public int[] onesPerQuery() {
    int[] out = new int[queries];
    for (int q = 0; q < queries; q++) {
      out[q] = ones(q);
    }
    return out;
  }

  /** The non-private majority of query q: 1 iff more than K/2 teachers vote 1. */
  public int majority(int query) {
    return 2 * ones(query) > teachers ? 1 : 0;
  }
}
