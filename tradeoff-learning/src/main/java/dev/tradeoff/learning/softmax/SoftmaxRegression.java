package dev.tradeoff.learning.softmax;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.MulticlassData;
import java.io.Serializable;

/**
 * Non-private, deterministic solver of L2-regularised softmax regression ({@link SoftmaxLoss}):
 * L-BFGS (Liu and Nocedal 1989, "On the limited memory BFGS method for large scale optimization";
 * the two-loop recursion of Nocedal and Wright 2006, Algorithm 7.4) with {@value #MEMORY} correction
 * pairs and a backtracking line search (Armijo's sufficient decrease, or near the optimum Hager and
 * Zhang's approximate Wolfe conditions), started at W = 0.
 *
 * <p>J is λ-strongly convex, so every curvature pair has sᵀy ≥ λ‖s‖² &gt; 0 and the search
 * directions are descent directions. The solver stops at the first iterate with ‖∇J(W)‖₂ ≤
 * {@code tolerance} (then ‖W − W*‖ ≤ tolerance/λ), when the line search finds no acceptable step
 * in floating point, or after {@code maxIterations} iterations, and returns that iterate: it never
 * throws on data. The same rows in the same order always give the same weights.
 *
 * <p>Not private: for GNMax's non-private teachers (whose released votes are charged per answer)
 * and for the non-private baseline of accuracy reports.
 *
 * @param lambda the L2 regularisation λ &gt; 0
 * @param tolerance the gradient norm ‖∇J‖₂ at which to stop, &gt; 0
 * @param maxIterations the iteration cap ≥ 1
 */
public record SoftmaxRegression(double lambda, double tolerance, int maxIterations)
    implements Serializable {

  /** Default gradient norm at which to stop, ‖∇J‖₂ ≤ 1e−5. */
  public static final double DEFAULT_TOLERANCE = 1e-5;

  /** Default cap on L-BFGS iterations. */
  public static final int DEFAULT_MAX_ITERATIONS = 1000;

  /** Correction pairs kept by L-BFGS. */
  public static final int MEMORY = 10;

  /** Armijo's sufficient-decrease constant c₁. */
  private static final double ARMIJO = 1e-4;

  /** Relative rise of J that the approximate Wolfe conditions ascribe to rounding. */
  private static final double ROUNDING = 1e-12;

  /** The curvature constant of the approximate Wolfe conditions. */
  private static final double CURVATURE = 0.9;

  /** Halvings of the step before the line search gives up. */
  private static final int MAX_HALVINGS = 60;

  public SoftmaxRegression {
    Require.positive("lambda", lambda);
    Require.positive("tolerance", tolerance);
    Require.positive("maxIterations", maxIterations);
  }

  /** A solver with {@link #DEFAULT_TOLERANCE} and {@link #DEFAULT_MAX_ITERATIONS}. */
  public SoftmaxRegression(double lambda) {
    this(lambda, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS);
  }

  /** Minimises J on the data (n may be 0: the minimiser is then W = 0). */
  public SoftmaxModel fit(MulticlassData data) {
    Require.nonNull("data", data);
    int size = data.classes() * data.dimension();
    double[] w = new double[size];
    double[] g = new double[size];
    double[] trial = new double[size];
    double[] trialGradient = new double[size];
    double[] direction = new double[size];
    double[][] s = new double[MEMORY][size];
    double[][] y = new double[MEMORY][size];
    double[] rho = new double[MEMORY];
    double[] alpha = new double[MEMORY];
    int stored = 0;
    int newest = -1;
    double value = SoftmaxLoss.valueAndGradient(w, data, lambda, g);
    for (int iteration = 0; iteration < maxIterations; iteration++) {
      double gradientNorm = Math.sqrt(dot(g, g));
      if (gradientNorm <= tolerance) {
        break;
      }
      // two-loop recursion: direction = −H g
      System.arraycopy(g, 0, direction, 0, size);
      for (int k = 0; k < stored; k++) {
        int m = Math.floorMod(newest - k, MEMORY);
        alpha[m] = rho[m] * dot(s[m], direction);
        axpy(-alpha[m], y[m], direction);
      }
      double initialScale = stored == 0 ? 1 / gradientNorm : dot(s[newest], y[newest])
          / dot(y[newest], y[newest]);
      scale(initialScale, direction);
      for (int k = stored - 1; k >= 0; k--) {
        int m = Math.floorMod(newest - k, MEMORY);
        double beta = rho[m] * dot(y[m], direction);
        axpy(alpha[m] - beta, s[m], direction);
      }
      scale(-1, direction);
      double slope = dot(g, direction);
      if (!(slope < 0)) {
        break;
      }
      double step = 1;
      double trialValue = Double.NaN;
      boolean accepted = false;
      for (int h = 0; h < MAX_HALVINGS && !accepted; h++) {
        for (int k = 0; k < size; k++) {
          trial[k] = w[k] + step * direction[k];
        }
        trialValue = SoftmaxLoss.valueAndGradient(trial, data, lambda, trialGradient);
        accepted = trialValue <= value + ARMIJO * step * slope
            || approximatelyWolfe(value, slope, trialValue, dot(trialGradient, direction));
        if (!accepted) {
          step /= 2;
        }
      }
      if (!accepted) {
        break;
      }
      newest = (newest + 1) % MEMORY;
      stored = Math.min(stored + 1, MEMORY);
      for (int k = 0; k < size; k++) {
        s[newest][k] = trial[k] - w[k];
        y[newest][k] = trialGradient[k] - g[k];
      }
      double curvature = dot(s[newest], y[newest]);
      rho[newest] = 1 / curvature;
      double[] t = w;
      w = trial;
      trial = t;
      t = g;
      g = trialGradient;
      trialGradient = t;
      value = trialValue;
      if (!(curvature > 0)) {
        // only rounding can break strong convexity's sᵀy ≥ λ‖s‖²: restart from steepest descent
        stored = 0;
        newest = -1;
      }
    }
    return new SoftmaxModel(data.classes(), data.dimension(), w);
  }

  /**
   * Hager and Zhang's (2005, SIAM J. Optim. 16(1), eq. (23)) approximate Wolfe conditions, which
   * accept a step by the slope where rounding hides J's decrease near the optimum: J did not rise by
   * more than {@value #ROUNDING} relative, and (2c₁ − 1)φ′(0) ≥ φ′(α) ≥ {@value #CURVATURE} φ′(0).
   */
  private static boolean approximatelyWolfe(
      double value, double slope, double trialValue, double trialSlope) {
    return trialValue <= value + ROUNDING * Math.abs(value)
        && trialSlope <= (2 * ARMIJO - 1) * slope
        && trialSlope >= CURVATURE * slope;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int k = 0; k < a.length; k++) {
      s += a[k] * b[k];
    }
    return s;
  }

  private static void axpy(double a, double[] x, double[] y) {
    for (int k = 0; k < x.length; k++) {
      y[k] += a * x[k];
    }
  }

  private static void scale(double a, double[] x) {
    for (int k = 0; k < x.length; k++) {
      x[k] *= a;
    }
  }
}
