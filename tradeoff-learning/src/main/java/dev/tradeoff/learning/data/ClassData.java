package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Multi-class labelled data as read from a file (IDX images or CSV): n rows of d real features and
 * an integer class per row. {@link #binary} picks two classes and yields the 0/1 {@link Dataset}
 * the learners train on.
 */
public final class ClassData {

  private final int dimension;
  private final double[] features;
  private final int[] classes;

  /**
   * @param dimension d ≥ 1
   * @param features n·d finite features, row-major (copied)
   * @param classes n ≥ 1 class labels (copied)
   */
  public ClassData(int dimension, double[] features, int[] classes) {
    this.dimension = Require.positive("dimension", dimension);
    Require.nonNull("features", features);
    Require.nonNull("classes", classes);
    Require.positive("classes.length", classes.length);
    Require.that(
        features.length == (long) classes.length * dimension,
        "features.length",
        "must equal classes.length * dimension = " + (long) classes.length * dimension,
        features.length);
    for (int k = 0; k < features.length; k++) {
      Require.finite("features[" + k + "]", features[k]);
    }
    this.features = features.clone();
    this.classes = classes.clone();
  }

  public int size() {
    return classes.length;
  }

  public int dimension() {
    return dimension;
  }

  /** The class of row i. */
  public int classOf(int i) {
    return classes[Require.inClosedRange("i", i, 0, classes.length - 1)];
  }

  /** The distinct classes present, ascending. */
  public int[] distinctClasses() {
    return Arrays.stream(classes).distinct().sorted().toArray();
  }

  /** Number of rows of the given class. */
  public int count(int label) {
    int c = 0;
    for (int y : classes) {
      if (y == label) {
        c++;
      }
    }
    return c;
  }

  /**
   * The rows of the two classes, in file order, labelled 0 (negative class) and 1 (positive class).
   *
   * @throws IllegalArgumentException if the classes are equal or either does not occur
   */
  public Dataset binary(int negativeClass, int positiveClass) {
    Require.that(
        negativeClass != positiveClass,
        "positiveClass",
        "must differ from negativeClass " + negativeClass,
        positiveClass);
    requirePresent("negativeClass", negativeClass);
    requirePresent("positiveClass", positiveClass);
    int n = count(negativeClass) + count(positiveClass);
    double[] flat = new double[n * dimension];
    int[] labels = new int[n];
    int k = 0;
    for (int i = 0; i < classes.length; i++) {
      if (classes[i] == negativeClass || classes[i] == positiveClass) {
        System.arraycopy(features, i * dimension, flat, k * dimension, dimension);
        labels[k++] = classes[i] == positiveClass ? 1 : 0;
      }
    }
    return Dataset.ofFlat(dimension, flat, labels);
  }

  private void requirePresent(String name, int label) {
    if (count(label) == 0) {
      TreeSet<Integer> present = Arrays.stream(classes).boxed().collect(Collectors.toCollection(TreeSet::new));
      throw new IllegalArgumentException(
          name + " must be a class present in the data " + present + ", but was " + label);
    }
  }
}
