package dev.tradeoff.learning.softmax;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.MulticlassData;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A multinomial logistic (softmax) classifier: C×d weights W, class scores s = Wx, predicted class
 * argmax_c s_c and Pr[y = c | x] = exp(s_c)/Σ_k exp(s_k). The intercept, if any, is a constant
 * feature the caller appended to x.
 *
 * @param classes C ≥ 2
 * @param dimension d ≥ 1
 * @param weights the C·d finite weights, row-major (row c is class c's weight vector); copied in
 *     and out
 */
public record SoftmaxModel(int classes, int dimension, double[] weights) implements Serializable {

  public SoftmaxModel {
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    Require.positive("dimension", dimension);
    Require.nonNull("weights", weights);
    Require.that(
        weights.length == (long) classes * dimension,
        "weights.length",
        "must equal classes * dimension = " + (long) classes * dimension,
        weights.length);
    weights = Require.finiteValues("weights", weights);
  }

  /** The all-zero model, which gives every class probability 1/C. */
  public static SoftmaxModel zero(int classes, int dimension) {
    Require.positive("dimension", dimension);
    Require.that(classes >= 2, "classes", "must be >= 2", classes);
    return new SoftmaxModel(classes, dimension, new double[classes * dimension]);
  }

  /** A copy of the weights, row-major C×d. */
  @Override
  public double[] weights() {
    return weights.clone();
  }

  /** The scores Wx, one per class. */
  public double[] scores(double[] x) {
    checkFeatures(x);
    double[] s = new double[classes];
    for (int c = 0; c < classes; c++) {
      int offset = c * dimension;
      double sum = 0;
      for (int j = 0; j < dimension; j++) {
        sum += weights[offset + j] * x[j];
      }
      s[c] = sum;
    }
    return s;
  }

  /** argmax_c (Wx)_c; ties go to the lowest class index. */
  public int predict(double[] x) {
    return SoftmaxLoss.argmax(scores(x));
  }

  /**
   * The softmax of the scores, computed as exp(s_c − m)/Σ_k exp(s_k − m) with m = max_k s_k, so no
   * exponential overflows; the entries are in [0, 1] and sum to 1 up to rounding.
   */
  public double[] probabilities(double[] x) {
    double[] s = scores(x);
    SoftmaxLoss.softmaxInPlace(s);
    return s;
  }

  /** The predicted class of every row. */
  public int[] predict(MulticlassData data) {
    checkData(data);
    double[] s = new double[classes];
    int[] out = new int[data.size()];
    for (int i = 0; i < out.length; i++) {
      data.scores(i, weights, s);
      out[i] = SoftmaxLoss.argmax(s);
    }
    return out;
  }

  /**
   * Fraction of rows whose predicted class equals the label.
   *
   * @param data n ≥ 1 rows
   */
  public double accuracy(MulticlassData data) {
    checkData(data);
    Require.positive("data.size", data.size());
    int[] predictions = predict(data);
    int correct = 0;
    for (int i = 0; i < predictions.length; i++) {
      if (predictions[i] == data.label(i)) {
        correct++;
      }
    }
    return (double) correct / predictions.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SoftmaxModel m
        && m.classes == classes
        && m.dimension == dimension
        && Arrays.equals(m.weights, weights);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * classes + dimension) + Arrays.hashCode(weights);
  }

  @Override
  public String toString() {
    return "SoftmaxModel[classes=" + classes + ", dimension=" + dimension + ", weights="
        + Arrays.toString(weights) + "]";
  }

  private void checkFeatures(double[] x) {
    Require.nonNull("x", x);
    Require.that(x.length == dimension, "x.length", "must equal the dimension " + dimension,
        x.length);
    for (int j = 0; j < dimension; j++) {
      Require.finite("x[" + j + "]", x[j]);
    }
  }

  private void checkData(MulticlassData data) {
    Require.nonNull("data", data);
    Require.that(data.dimension() == dimension, "data.dimension",
        "must equal the model dimension " + dimension, data.dimension());
    Require.that(data.classes() == classes, "data.classes",
        "must equal the model's classes " + classes, data.classes());
  }
}
