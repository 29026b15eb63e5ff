package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The vote histograms of Q queries from the same K teachers over the same C classes, checked once:
 * every row has C ≥ 2 counts summing to K ≥ 1, and ids are distinct. The neighbouring relation the
 * aggregators' guarantees use: two tables are neighbours when one teacher's vote differs on every
 * query, which is what adding or removing one training record does when each teacher is trained on
 * its own partition (Papernot et al. 2018, Section 2) — so the privacy unit is the training record.
 *
 * @param rows the queries in order (copied)
 * @param classes C
 * @param teachers K
 */
public record VoteTable(List<Votes> rows, int classes, int teachers) {

  public VoteTable {
    Require.nonNull("rows", rows);
    Require.that(!rows.isEmpty(), "rows", "must hold at least one query", 0);
    rows = List.copyOf(rows);
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    Require.positive("teachers", teachers);
    Set<String> ids = new HashSet<>();
    for (Votes v : rows) {
      Require.that(v.classes() == classes, "classes of query " + v.id(),
          "must equal the table's " + classes, v.classes());
      Require.that(v.teachers() == teachers, "teachers of query " + v.id() + " (sum of its counts)",
          "must equal the first query's " + teachers, v.teachers());
      Require.that(ids.add(v.id()), "id", "must be unique", v.id());
    }
  }

  /** The table of the given rows; C and K are read off the first row and checked on the rest. */
  public static VoteTable of(List<Votes> rows) {
    Require.nonNull("rows", rows);
    Require.that(!rows.isEmpty(), "rows", "must hold at least one query", 0);
    Votes first = rows.get(0);
    Require.that(first.teachers() <= Integer.MAX_VALUE && first.teachers() > 0,
        "teachers of query " + first.id() + " (sum of its counts)", "must be in [1, 2^31 - 1]",
        first.teachers());
    return new VoteTable(rows, first.classes(), (int) first.teachers());
  }

  /**
   * The table of per-teacher predictions: {@code predictions[q][t]} is the class in [0, C) teacher
   * t predicted for query q.
   *
   * @param ids the Q query ids
   * @param predictions Q rows of K predictions each
   * @param classes C ≥ 2 (public: never read off the predictions)
   */
  public static VoteTable fromPredictions(List<String> ids, int[][] predictions, int classes) {
    Require.nonNull("ids", ids);
    Require.nonNull("predictions", predictions);
    Require.that(ids.size() == predictions.length, "ids", "must number the prediction rows "
        + predictions.length, ids.size());
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    List<Votes> rows = new ArrayList<>(ids.size());
    for (int q = 0; q < predictions.length; q++) {
      int[] counts = new int[classes];
      for (int t = 0; t < predictions[q].length; t++) {
        int c = predictions[q][t];
        Require.that(c >= 0 && c < classes, "prediction of teacher " + t + " for query "
            + ids.get(q), "must be a class in [0, " + (classes - 1) + "]", c);
        counts[c]++;
      }
      rows.add(new Votes(ids.get(q), counts));
    }
    return of(rows);
  }

  /** Q. */
  public int size() {
    return rows.size();
  }
}
