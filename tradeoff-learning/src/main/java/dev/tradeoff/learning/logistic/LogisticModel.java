package dev.tradeoff.learning.logistic;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;

/**
 * A linear classifier w: predicts 1 when ⟨w, x⟩ &gt; 0, else 0, with Pr[y = 1 | x] = σ(⟨w, x⟩) the
 * logistic sigmoid. The intercept, if any, is a constant feature (see
 * {@link Dataset#withBiasUnitNorm}).
 */
public final class LogisticModel {

  private final double[] weights;

  /** A model with the given weights (copied); each must be finite. */
  public LogisticModel(double[] weights) {
    this.weights = Require.finiteValues("weights", weights);
  }

  /** A copy of the weights. */
  public double[] weights() {
    return weights.clone();
  }

  /** d, the number of weights. */
  public int dimension() {
    return weights.length;
  }

  /** ‖w‖₂. */
  public double norm() {
    double s = 0;
    for (double v : weights) {
      s += v * v;
    }
    return Math.sqrt(s);
  }

  /** The margin ⟨w, x_i⟩ of row i. */
  public double margin(Dataset data, int i) {
    checkDimension(data);
    return data.dot(i, weights);
  }

  /** σ(⟨w, x_i⟩), the modelled probability that row i has label 1. */
  public double probability(Dataset data, int i) {
    return LogisticLoss.sigmoid(margin(data, i));
  }

  /** The 0/1 prediction for row i: 1 iff ⟨w, x_i⟩ &gt; 0. */
  public int predict(Dataset data, int i) {
    return margin(data, i) > 0 ? 1 : 0;
  }

  /** The 0/1 predictions for every row. */
  public int[] predict(Dataset data) {
    checkDimension(data);
    int[] out = new int[data.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = data.dot(i, weights) > 0 ? 1 : 0;
    }
    return out;
  }

  /** Fraction of rows whose prediction equals the label. */
  public double accuracy(Dataset data) {
    int[] predictions = predict(data);
    int correct = 0;
    for (int i = 0; i < predictions.length; i++) {
      if (predictions[i] == data.label(i)) {
        correct++;
      }
    }
    return (double) correct / predictions.length;
  }

  private void checkDimension(Dataset data) {
    Require.nonNull("data", data);
    Require.that(
        data.dimension() == weights.length,
        "data.dimension",
        "must equal the model dimension " + weights.length,
        data.dimension());
  }
}
