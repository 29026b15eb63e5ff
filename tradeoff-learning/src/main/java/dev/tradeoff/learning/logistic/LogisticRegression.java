package dev.tradeoff.learning.logistic;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;

/**
 * Non-private, deterministic solver of L2-regularised logistic regression ({@link LogisticLoss}):
 * Nesterov's accelerated gradient method for μ-strongly convex, L-smooth objectives (Nesterov 2004,
 * "Introductory Lectures on Convex Optimization", constant-momentum scheme 2.2.19) with μ = λ and
 * L = λ + max‖x‖²/4, started at w = 0.
 *
 * <p>Certified stopping: J is λ-strongly convex, so for every w, ‖w − w*‖ ≤ ‖∇J(w)‖/λ. The solver
 * stops at the first iterate with ‖∇J(w)‖/λ ≤ {@code tolerance} and reports that bound, which
 * output perturbation adds to its sensitivity (see
 * {@code dev.tradeoff.learning.perturbation.OutputPerturbation}). The same data in the same order
 * always yields the same weights.
 */
public final class LogisticRegression {

  /** Default certified distance to the optimum, ‖w − w*‖ ≤ 1e−8. */
  public static final double DEFAULT_TOLERANCE = 1e-8;

  /** Default cap on iterations. */
  public static final int DEFAULT_MAX_ITERATIONS = 100_000;

  private final double lambda;
  private final double tolerance;
  private final int maxIterations;

  /**
   * @param lambda the regularisation λ &gt; 0
   * @param tolerance the certified ‖w − w*‖ at which to stop, &gt; 0
   * @param maxIterations the iteration cap ≥ 1
   */
  public LogisticRegression(double lambda, double tolerance, int maxIterations) {
    this.lambda = Require.positive("lambda", lambda);
    this.tolerance = Require.positive("tolerance", tolerance);
    this.maxIterations = Require.positive("maxIterations", maxIterations);
  }

  /** A solver with {@link #DEFAULT_TOLERANCE} and {@link #DEFAULT_MAX_ITERATIONS}. */
  public LogisticRegression(double lambda) {
    this(lambda, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS);
  }

  public double lambda() {
    return lambda;
  }

  public double tolerance() {
    return tolerance;
  }

  /**
   * The outcome of a fit.
   *
   * @param model the weights found
   * @param distanceBound a certified upper bound on ‖w − w*‖: ‖∇J(w)‖/λ, at most the tolerance
   * @param iterations gradient evaluations used
   */
  public record Fit(LogisticModel model, double distanceBound, int iterations) {}

  /**
   * Minimises J on the data.
   *
   * @throws IllegalStateException if the tolerance is not certified within the iteration cap
   */
  public Fit fit(Dataset data) {
    Require.nonNull("data", data);
    int d = data.dimension();
    double maxNorm = data.maxRowNorm();
    double smoothness = lambda + maxNorm * maxNorm / 4;
    double step = 1 / smoothness;
    double rootRatio = Math.sqrt(lambda / smoothness);
    double momentum = (1 - rootRatio) / (1 + rootRatio);
    double[] x = new double[d];
    double[] y = new double[d];
    double[] next = new double[d];
    for (int k = 1; k <= maxIterations; k++) {
      double[] g = LogisticLoss.gradient(y, data, lambda);
      double bound = Math.sqrt(LogisticLoss.squaredNorm(g)) / lambda;
      if (bound <= tolerance) {
        // a relative 1e-12 for the rounding in the gradient's evaluation
        return new Fit(new LogisticModel(y), bound * (1 + 1e-12), k);
      }
      for (int j = 0; j < d; j++) {
        next[j] = y[j] - step * g[j];
      }
      for (int j = 0; j < d; j++) {
        y[j] = next[j] + momentum * (next[j] - x[j]);
      }
      double[] t = x;
      x = next;
      next = t;
    }
    throw new IllegalStateException(
        "logistic regression did not certify ||w - w*|| <= "
            + tolerance
            + " within "
            + maxIterations
            + " iterations (lambda "
            + lambda
            + ")");
  }
}
