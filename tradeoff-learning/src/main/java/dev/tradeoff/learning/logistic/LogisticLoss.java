package dev.tradeoff.learning.logistic;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;

/**
 * The L2-regularised logistic regression objective of Chaudhuri, Monteleoni and Sarwate (2011,
 * JMLR 12, eq. (1)) and of [StabVal13, Algorithm 4]:
 *
 * <pre>  J(w) = (λ/2)‖w‖² + (1/n) Σᵢ ℓ(w; xᵢ, yᵢ),   ℓ(w; x, y) = log(1 + exp(−s⟨w, x⟩)),  s = 2y − 1.</pre>
 *
 * <p>ℓ is convex, 1-Lipschitz in the margin and (1/4)-smooth, so with ‖x‖ ≤ 1 the per-example
 * gradient has norm ≤ 1 and J is λ-strongly convex and (λ + max‖x‖²/4)-smooth. Losses are evaluated
 * without overflow as softplus(−s⟨w, x⟩) = max(0, z) + log1p(e^{−|z|}).
 */
public final class LogisticLoss {

  private LogisticLoss() {}

  /** The logistic sigmoid 1/(1 + e^{−z}), evaluated without overflow. */
  public static double sigmoid(double z) {
    if (z >= 0) {
      return 1 / (1 + Math.exp(-z));
    }
    double e = Math.exp(z);
    return e / (1 + e);
  }

  /** softplus(z) = log(1 + e^z), evaluated without overflow or cancellation. */
  public static double softplus(double z) {
    return Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
  }

  /** ℓ(w; x_i, y_i) for row i. */
  public static double loss(double[] w, Dataset data, int i) {
    double s = 2 * data.label(i) - 1;
    return softplus(-s * data.dot(i, w));
  }

  /**
   * The derivative of ℓ with respect to the margin m = ⟨w, x⟩: −s·σ(−s·m), in [−1, 1]; the gradient
   * in w is this times x.
   */
  public static double marginDerivative(double margin, int label) {
    double s = 2 * label - 1;
    return -s * sigmoid(-s * margin);
  }

  /** J(w) = (λ/2)‖w‖² + (1/n) Σ ℓ(w; x_i, y_i). */
  public static double objective(double[] w, Dataset data, double lambda) {
    check(w, data, lambda);
    double sum = 0;
    for (int i = 0; i < data.size(); i++) {
      sum += loss(w, data, i);
    }
    return 0.5 * lambda * squaredNorm(w) + sum / data.size();
  }

  /** ∇J(w) = λw + (1/n) Σ ℓ′(⟨w, x_i⟩) x_i. */
  public static double[] gradient(double[] w, Dataset data, double lambda) {
    check(w, data, lambda);
    double[] g = new double[w.length];
    int n = data.size();
    for (int i = 0; i < n; i++) {
      data.addScaledRow(i, marginDerivative(data.dot(i, w), data.label(i)) / n, g);
    }
    for (int j = 0; j < w.length; j++) {
      g[j] += lambda * w[j];
    }
    return g;
  }

  /** The gradient of ℓ(w; x_i, y_i) alone (no regulariser). */
  public static double[] exampleGradient(double[] w, Dataset data, int i) {
    double[] g = new double[w.length];
    data.addScaledRow(i, marginDerivative(data.dot(i, w), data.label(i)), g);
    return g;
  }

  static double squaredNorm(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x * x;
    }
    return s;
  }

  private static void check(double[] w, Dataset data, double lambda) {
    Require.nonNull("w", w);
    Require.nonNull("data", data);
    Require.nonNegative("lambda", lambda);
    Require.that(
        w.length == data.dimension(), "w.length", "must equal " + data.dimension(), w.length);
  }
}
