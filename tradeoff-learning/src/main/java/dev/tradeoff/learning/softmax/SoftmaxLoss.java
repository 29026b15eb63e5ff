package dev.tradeoff.learning.softmax;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.MulticlassData;
import java.util.Arrays;

/**
 * The L2-regularised multinomial logistic (softmax) regression objective over row-major C×d
 * weights W:
 *
 * <pre>  J(W) = (λ/2)‖W‖_F² + (1/n) Σᵢ ℓ(W; xᵢ, yᵢ),   ℓ(W; x, y) = log Σ_c exp((Wx)_c) − (Wx)_y,</pre>
 *
 * the cross-entropy of the softmax probabilities p = softmax(Wx). Its gradient in W is the outer
 * product (p − e_y) ⊗ x, of Frobenius norm ‖p − e_y‖₂·‖x‖₂ ≤ √2·‖x‖₂. With n = 0 the data term is 0.
 * The log-sum-exp is evaluated as m + log Σ exp(s_c − m), m = max_c s_c, which never overflows.
 */
public final class SoftmaxLoss {

  private SoftmaxLoss() {}

  /** J(W) = (λ/2)‖W‖_F² + (1/n) Σ ℓ(W; xᵢ, yᵢ). */
  public static double objective(double[] weights, MulticlassData data, double lambda) {
    check(weights, data, lambda);
    return valueAndGradient(weights, data, lambda, null);
  }

  /** ∇J(W) = λW + (1/n) Σ (pᵢ − e_{yᵢ}) ⊗ xᵢ, row-major C×d. */
  public static double[] gradient(double[] weights, MulticlassData data, double lambda) {
    check(weights, data, lambda);
    double[] g = new double[weights.length];
    valueAndGradient(weights, data, lambda, g);
    return g;
  }

  /** The gradient (p − e_y) ⊗ x of ℓ(W; xᵢ, yᵢ) alone (no regulariser), row-major C×d. */
  public static double[] exampleGradient(double[] weights, MulticlassData data, int i) {
    check(weights, data, 0);
    Require.inClosedRange("i", i, 0, data.size() - 1);
    double[] p = new double[data.classes()];
    data.scores(i, weights, p);
    softmaxInPlace(p);
    p[data.label(i)] -= 1;
    double[] g = new double[weights.length];
    data.addOuterProduct(i, p, g);
    return g;
  }

  /**
   * J(W), and when {@code gradient} is not null ∇J(W) written into it; one pass over the rows, no
   * allocation per row.
   */
  static double valueAndGradient(
      double[] weights, MulticlassData data, double lambda, double[] gradient) {
    int n = data.size();
    double[] p = new double[data.classes()];
    if (gradient != null) {
      Arrays.fill(gradient, 0);
    }
    double loss = 0;
    for (int i = 0; i < n; i++) {
      data.scores(i, weights, p);
      int y = data.label(i);
      double scoreOfLabel = p[y];
      loss += softmaxInPlace(p) - scoreOfLabel;
      if (gradient != null) {
        p[y] -= 1;
        data.addOuterProduct(i, p, gradient);
      }
    }
    double squaredNorm = 0;
    for (int k = 0; k < weights.length; k++) {
      squaredNorm += weights[k] * weights[k];
    }
    if (gradient != null) {
      double scale = n == 0 ? 0 : 1.0 / n;
      for (int k = 0; k < weights.length; k++) {
        gradient[k] = gradient[k] * scale + lambda * weights[k];
      }
    }
    return 0.5 * lambda * squaredNorm + (n == 0 ? 0 : loss / n);
  }

  /**
   * Replaces the scores s by softmax(s) = exp(s_c − m)/Σ_k exp(s_k − m), m = max s, and returns
   * log Σ_k exp(s_k) = m + log Σ_k exp(s_k − m).
   */
  static double softmaxInPlace(double[] s) {
    double max = Double.NEGATIVE_INFINITY;
    for (double v : s) {
      max = Math.max(max, v);
    }
    double sum = 0;
    for (int c = 0; c < s.length; c++) {
      s[c] = Math.exp(s[c] - max);
      sum += s[c];
    }
    for (int c = 0; c < s.length; c++) {
      s[c] /= sum;
    }
    return max + Math.log(sum);
  }

  /** The index of the largest entry; ties go to the lowest index. */
  static int argmax(double[] s) {
    int best = 0;
    for (int c = 1; c < s.length; c++) {
      if (s[c] > s[best]) {
        best = c;
      }
    }
    return best;
  }

  private static void check(double[] weights, MulticlassData data, double lambda) {
    Require.nonNull("weights", weights);
    Require.nonNull("data", data);
    Require.nonNegative("lambda", lambda);
    long expected = (long) data.classes() * data.dimension();
    Require.that(weights.length == expected, "weights.length",
        "must equal classes * dimension = " + expected, weights.length);
  }
}
