package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import java.io.Serializable;

/**
 * One trained teacher: a linear score per class (softmax or one-vs-rest), or a single one for two
 * classes, over features mapped by a {@link Featurizer}.
 *
 * @param index the teacher's partition in [0, K)
 * @param weights one weight vector for two classes (vote 1 iff ⟨w, x⟩ &gt; 0), else one per class
 *     (vote the argmax)
 */
public record TeacherModel(int index, double[][] weights) implements Serializable {

  public TeacherModel {
    Require.nonNegative("index", index);
    Require.that(weights.length >= 1, "weights", "must hold at least one vector", weights.length);
    double[][] copy = new double[weights.length][];
    for (int c = 0; c < weights.length; c++) {
      copy[c] = Require.finiteValues("weights[" + c + "]", weights[c]).clone();
    }
    weights = copy;
  }

  /** The teacher's vote, a class index, for features x (already mapped). */
  public int vote(double[] x) {
    if (weights.length == 1) {
      return dot(weights[0], x) > 0 ? 1 : 0;
    }
    int best = 0;
    double bestMargin = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < weights.length; c++) {
      double m = dot(weights[c], x);
      if (m > bestMargin) {
        bestMargin = m;
        best = c;
      }
    }
    return best;
  }

  private static double dot(double[] w, double[] x) {
    double s = 0;
    for (int j = 0; j < x.length; j++) {
      s += w[j] * x[j];
    }
    return s;
  }
}
