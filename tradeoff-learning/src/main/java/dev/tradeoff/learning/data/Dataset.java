package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * An immutable labelled dataset for binary classification: n rows of d real features (row-major)
 * and a label in {0, 1} per row. Rows are read in place through {@link #dot} and
 * {@link #addScaledRow}, so trainers never copy the feature matrix.
 */
public final class Dataset {

  private final int size;
  private final int dimension;
  private final double[] features;
  private final int[] labels;

  private Dataset(int size, int dimension, double[] features, int[] labels) {
    this.size = size;
    this.dimension = dimension;
    this.features = features;
    this.labels = labels;
  }

  /**
   * A dataset from rows of equal length and 0/1 labels (both copied).
   *
   * @param rows n ≥ 1 rows of d ≥ 1 finite features each
   * @param labels n labels, each 0 or 1
   */
  public static Dataset of(double[][] rows, int[] labels) {
    Require.nonNull("rows", rows);
    Require.nonNull("labels", labels);
    Require.positive("rows.length", rows.length);
    Require.that(
        labels.length == rows.length, "labels.length", "must equal rows.length " + rows.length,
        labels.length);
    int d = Require.nonNull("rows[0]", rows[0]).length;
    Require.positive("rows[0].length", d);
    double[] flat = new double[rows.length * d];
    for (int i = 0; i < rows.length; i++) {
      double[] row = Require.nonNull("rows[" + i + "]", rows[i]);
      Require.that(row.length == d, "rows[" + i + "].length", "must equal " + d, row.length);
      for (int j = 0; j < d; j++) {
        flat[i * d + j] = Require.finite("rows[" + i + "][" + j + "]", row[j]);
      }
    }
    return new Dataset(rows.length, d, flat, checkedLabels(labels));
  }

  /**
   * A dataset from a row-major feature array (copied).
   *
   * @param dimension d ≥ 1; {@code features.length} must be n·d
   */
  public static Dataset ofFlat(int dimension, double[] features, int[] labels) {
    Require.positive("dimension", dimension);
    Require.nonNull("features", features);
    Require.nonNull("labels", labels);
    Require.positive("labels.length", labels.length);
    Require.that(
        features.length == (long) labels.length * dimension,
        "features.length",
        "must equal labels.length * dimension = " + (long) labels.length * dimension,
        features.length);
    for (int k = 0; k < features.length; k++) {
      Require.finite("features[" + k + "]", features[k]);
    }
    return new Dataset(labels.length, dimension, features.clone(), checkedLabels(labels));
  }

  private static int[] checkedLabels(int[] labels) {
    for (int i = 0; i < labels.length; i++) {
      Require.inClosedRange("labels[" + i + "]", labels[i], 0, 1);
    }
    return labels.clone();
  }

  /** n, the number of rows. */
  public int size() {
    return size;
  }

  /** d, the number of features per row. */
  public int dimension() {
    return dimension;
  }

  /** The label of row i, 0 or 1. */
  public int label(int i) {
    return labels[Require.inClosedRange("i", i, 0, size - 1)];
  }

  /** Feature j of row i. */
  public double feature(int i, int j) {
    Require.inClosedRange("i", i, 0, size - 1);
    Require.inClosedRange("j", j, 0, dimension - 1);
    return features[i * dimension + j];
  }

  /** A copy of row i. */
  public double[] row(int i) {
    Require.inClosedRange("i", i, 0, size - 1);
    return Arrays.copyOfRange(features, i * dimension, (i + 1) * dimension);
  }

  /** A copy of all labels. */
  public int[] labels() {
    return labels.clone();
  }

  /** ⟨x_i, w⟩ for a vector w of length d. */
  public double dot(int i, double[] w) {
    int offset = i * dimension;
    double s = 0;
    for (int j = 0; j < dimension; j++) {
      s += features[offset + j] * w[j];
    }
    return s;
  }

  /** acc += scale · x_i, for a vector acc of length d. */
  public void addScaledRow(int i, double scale, double[] acc) {
    int offset = i * dimension;
    for (int j = 0; j < dimension; j++) {
      acc[j] += scale * features[offset + j];
    }
  }

  /** ‖x_i‖₂. */
  public double rowNorm(int i) {
    int offset = i * dimension;
    double s = 0;
    for (int j = 0; j < dimension; j++) {
      s += features[offset + j] * features[offset + j];
    }
    return Math.sqrt(s);
  }

  /** max_i ‖x_i‖₂. */
  public double maxRowNorm() {
    double m = 0;
    for (int i = 0; i < size; i++) {
      m = Math.max(m, rowNorm(i));
    }
    return m;
  }

  /** The rows at the given indices, in that order (indices may repeat). */
  public Dataset subset(int[] indices) {
    Require.nonNull("indices", indices);
    Require.positive("indices.length", indices.length);
    double[] flat = new double[indices.length * dimension];
    int[] y = new int[indices.length];
    for (int k = 0; k < indices.length; k++) {
      int i = Require.inClosedRange("indices[" + k + "]", indices[k], 0, size - 1);
      System.arraycopy(features, i * dimension, flat, k * dimension, dimension);
      y[k] = labels[i];
    }
    return new Dataset(indices.length, dimension, flat, y);
  }

  /** Rows [from, to). */
  public Dataset slice(int from, int to) {
    Require.inClosedRange("from", from, 0, size - 1);
    Require.inClosedRange("to", to, from + 1, size);
    int[] y = Arrays.copyOfRange(labels, from, to);
    double[] flat = Arrays.copyOfRange(features, from * dimension, to * dimension);
    return new Dataset(to - from, dimension, flat, y);
  }

  /** The rows in a uniformly random order (Fisher–Yates with the given generator). */
  public Dataset shuffled(RandomGenerator random) {
    Require.nonNull("random", random);
    int[] order = new int[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    for (int i = size - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return subset(order);
  }

  /**
   * Each row x mapped to (x, b)/‖(x, b)‖₂: a constant feature b for the intercept, then scaled to
   * unit norm. The map acts on each record alone, so it preserves neighbouring datasets and any
   * privacy guarantee of what is trained on its output; it gives the ‖x‖ ≤ 1 that output
   * perturbation (Chaudhuri, Monteleoni and Sarwate 2011, Theorem 6) and the clipping bound of
   * DP-SGD's analysis rely on. Queries must go through the same map.
   *
   * @param bias the constant feature b &gt; 0
   */
  public Dataset withBiasUnitNorm(double bias) {
    Require.positive("bias", bias);
    int d = dimension + 1;
    double[] flat = new double[size * d];
    for (int i = 0; i < size; i++) {
      double norm = Math.hypot(rowNorm(i), bias);
      for (int j = 0; j < dimension; j++) {
        flat[i * d + j] = features[i * dimension + j] / norm;
      }
      flat[i * d + dimension] = bias / norm;
    }
    return new Dataset(size, d, flat, labels);
  }

  /** Fraction of rows with label 1. */
  public double positiveFraction() {
    long ones = 0;
    for (int y : labels) {
      ones += y;
    }
    return (double) ones / size;
  }
}
