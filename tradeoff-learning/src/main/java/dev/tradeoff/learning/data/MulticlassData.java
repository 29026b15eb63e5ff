package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * An immutable labelled dataset for C-class classification: n ≥ 0 rows of d real features
 * (row-major) and a class in [0, C) per row. Unlike {@link ClassData} it may be empty (a teacher's
 * partition can be), and C is given by the caller rather than read off the labels: the set of
 * classes present in sensitive data is itself private.
 *
 * <p>Rows are read in place through {@link #scores} and {@link #addOuterProduct}, so softmax
 * trainers touch the flat feature array without copying or allocating per row. Row norms are
 * computed once, at construction.
 */
public final class MulticlassData {

  private final int classes;
  private final int dimension;
  private final double[] features;
  private final int[] labels;
  private final double[] rowNorms;

  /**
   * @param classes C ≥ 2
   * @param dimension d ≥ 1
   * @param features n·d finite features, row-major (copied); n = {@code labels.length} may be 0
   * @param labels n classes, each in [0, C) (copied)
   */
  public MulticlassData(int classes, int dimension, double[] features, int[] labels) {
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    this.classes = classes;
    this.dimension = Require.positive("dimension", dimension);
    Require.nonNull("features", features);
    Require.nonNull("labels", labels);
    Require.that(
        features.length == (long) labels.length * dimension,
        "features.length",
        "must equal labels.length * dimension = " + (long) labels.length * dimension,
        features.length);
    for (int k = 0; k < features.length; k++) {
      Require.finite("features[" + k + "]", features[k]);
    }
    for (int i = 0; i < labels.length; i++) {
      Require.inClosedRange("labels[" + i + "]", labels[i], 0, classes - 1);
    }
    this.features = features.clone();
    this.labels = labels.clone();
    this.rowNorms = new double[labels.length];
    for (int i = 0; i < labels.length; i++) {
      double s = 0;
      for (int j = i * dimension; j < (i + 1) * dimension; j++) {
        s += this.features[j] * this.features[j];
      }
      rowNorms[i] = Math.sqrt(s);
    }
  }

  /** n, the number of rows (possibly 0). */
  public int size() {
    return labels.length;
  }

  /** C, the number of classes. */
  public int classes() {
    return classes;
  }

  /** d, the number of features per row. */
  public int dimension() {
    return dimension;
  }

  /** The class of row i, in [0, C). */
  public int label(int i) {
    return labels[Require.inClosedRange("i", i, 0, labels.length - 1)];
  }

  /** A copy of row i. */
  public double[] row(int i) {
    Require.inClosedRange("i", i, 0, labels.length - 1);
    return Arrays.copyOfRange(features, i * dimension, (i + 1) * dimension);
  }

  /** ‖x_i‖₂ (unchecked index, for trainers' inner loops). */
  public double rowNorm(int i) {
    return rowNorms[i];
  }

  /**
   * out[c] = ⟨W_c, x_i⟩ for c in [0, C): the class scores of row i under the row-major C×d weights
   * W (unchecked, for trainers' inner loops; {@code out.length} ≥ C).
   */
  public void scores(int i, double[] weights, double[] out) {
    int offset = i * dimension;
    for (int c = 0; c < classes; c++) {
      int w = c * dimension;
      double s = 0;
      for (int j = 0; j < dimension; j++) {
        s += weights[w + j] * features[offset + j];
      }
      out[c] = s;
    }
  }

  /**
   * acc[c·d + j] += coefficients[c] · x_ij: adds the outer product of a C-vector and row i to a
   * row-major C×d accumulator (unchecked, for trainers' inner loops).
   */
  public void addOuterProduct(int i, double[] coefficients, double[] acc) {
    int offset = i * dimension;
    for (int c = 0; c < classes; c++) {
      double a = coefficients[c];
      if (a == 0) {
        continue;
      }
      int w = c * dimension;
      for (int j = 0; j < dimension; j++) {
        acc[w + j] += a * features[offset + j];
      }
    }
  }
}
