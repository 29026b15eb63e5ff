package dev.tradeoff.learning.perturbation;

import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticModel;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Output perturbation for L2-regularised logistic regression: the sensitivity method of Chaudhuri,
 * Monteleoni and Sarwate (2011, JMLR 12, Algorithm 1 and Corollary 8), which is also Algorithm 4
 * of the stability-based private validation appendix. Train w* = argmin (λ/2)‖w‖² + (1/n)Σℓ, then
 * release w* + b.
 *
 * <p>Sensitivity: for a 1-Lipschitz loss and features with ‖x‖ ≤ 1, replacing one of the n
 * records moves w* by at most 2/(nλ) in L2 ([CMS11, Corollary 8]; [StabVal13,
 * proof of Theorem 4]). The solver returns a deterministic ŵ with a certified ‖ŵ − w*‖ ≤ τ, so the
 * released function ŵ has sensitivity at most 2/(nλ) + 2τ, which is what the noise is calibrated
 * to (rounded up). Features must satisfy ‖x‖ ≤ 1: map them with
 * {@link Dataset#withBiasUnitNorm} first; data violating it is rejected.
 *
 * <ul>
 *   <li>{@link #pure}: b has density ∝ exp(−ε‖b‖/Δ) ({@link NormNoise}, ‖b‖ ~ Gamma(d, Δ/ε)):
 *       ε-DP.
 *   <li>{@link #gaussian}: b ~ N(0, σ²I) with σ from the analytic Gaussian (Balle and Wang 2018)
 *       at L2 sensitivity Δ: (ε, δ)-DP; the noise is snapped per coordinate to a 2^−40·σ lattice
 *       ({@link SnappedGaussian}).
 * </ul>
 *
 * <p>Neighbouring: replace-one (n fixed), as in Chaudhuri et al.
 */
public final class OutputPerturbation {

  private final double epsilon;
  private final double delta;
  private final LogisticRegression solver;

  private OutputPerturbation(double epsilon, double delta, LogisticRegression solver) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.delta = Require.delta("delta", delta);
    this.solver = Require.nonNull("solver", solver);
  }

  /** ε-DP output perturbation with Gamma-norm noise, solved by the given solver. */
  public static OutputPerturbation pure(double epsilon, LogisticRegression solver) {
    return new OutputPerturbation(epsilon, 0, solver);
  }

  /** ε-DP output perturbation with regularisation λ and the default solver tolerance. */
  public static OutputPerturbation pure(double epsilon, double lambda) {
    return pure(epsilon, new LogisticRegression(lambda));
  }

  /** (ε, δ)-DP output perturbation with Gaussian noise, solved by the given solver. */
  public static OutputPerturbation gaussian(
      double epsilon, double delta, LogisticRegression solver) {
    Require.openUnit("delta", delta);
    return new OutputPerturbation(epsilon, delta, solver);
  }

  /** (ε, δ)-DP output perturbation with regularisation λ and the default solver tolerance. */
  public static OutputPerturbation gaussian(double epsilon, double delta, double lambda) {
    return gaussian(epsilon, delta, new LogisticRegression(lambda));
  }

  public double epsilon() {
    return epsilon;
  }

  /** δ; 0 for the pure variant. */
  public double delta() {
    return delta;
  }

  public double lambda() {
    return solver.lambda();
  }

  /** The solver whose certified tolerance enters the sensitivity. */
  public LogisticRegression solver() {
    return solver;
  }

  /** The stated guarantee: {@link PureDp} or {@link ApproxDp}, under replace-one. */
  public PrivacyGuarantee guarantee() {
    return delta == 0 ? new PureDp(epsilon) : new ApproxDp(epsilon, delta);
  }

  /** 2/(nλ): the L2 sensitivity of the exact minimiser (Chaudhuri et al., Corollary 8). */
  public static double exactSensitivity(int n, double lambda) {
    Require.positive("n", n);
    Require.positive("lambda", lambda);
    return Math.nextUp(2 / (n * lambda));
  }

  /** 2/(nλ) + 2τ, rounded up: the L2 sensitivity of the released solver output. */
  public double sensitivity(int n) {
    return Math.nextUp(exactSensitivity(n, solver.lambda()) + 2 * solver.tolerance());
  }

  /**
   * The noise of this mechanism for n records in dimension d: the density ∝ exp(−ε‖b‖/Δ) for the
   * pure variant; empty for the Gaussian variant (use {@link #gaussianSigma}).
   */
  public Optional<NormNoise> normNoise(int n, int dimension) {
    return delta == 0
        ? Optional.of(new NormNoise(dimension, Math.nextUp(sensitivity(n) / epsilon)))
        : Optional.empty();
  }

  /** The Gaussian variant's per-coordinate σ for n records (analytic Gaussian, rounded up). */
  public double gaussianSigma(int n) {
    Require.that(delta > 0, "delta", "must be > 0 for the Gaussian variant", delta);
    return AnalyticGaussian.sigma(epsilon, delta, sensitivity(n));
  }

  /**
   * The accounting event: {@code GuaranteeEvent(PureDp(ε))} for the pure variant (its privacy loss
   * distribution has no simpler closed form), {@code GaussianEvent(σ/Δ)} for the Gaussian one.
   */
  public DpEvent event(int n) {
    return delta == 0
        ? new GuaranteeEvent(new PureDp(epsilon))
        : new GaussianEvent(gaussianSigma(n) / sensitivity(n));
  }

  /** The neighbouring relation of the guarantee: {@link Neighbouring#REPLACE_ONE}. */
  public Neighbouring neighbouring() {
    return Neighbouring.REPLACE_ONE;
  }

  /**
   * A trained, perturbed model.
   *
   * @param model the released weights ŵ + b
   * @param guarantee what the release satisfies, under {@link #neighbouring()}
   * @param event its accounting event
   * @param sensitivity the L2 sensitivity Δ the noise was calibrated to
   * @param size n, the number of training records
   */
  public record Release(
      LogisticModel model, PrivacyGuarantee guarantee, DpEvent event, double sensitivity,
      int size) {}

  /**
   * Trains on the data and releases the perturbed weights.
   *
   * @param data n records with ‖x‖ ≤ 1
   * @param random the noise source: {@code Randomness.secure()} in production
   */
  public Release train(Dataset data, RandomGenerator random) {
    Require.nonNull("data", data);
    Require.nonNull("random", random);
    double maxNorm = data.maxRowNorm();
    Require.that(
        maxNorm <= 1 + 1e-12,
        "max feature norm",
        "must be <= 1 for output perturbation's sensitivity 2/(n lambda)"
            + " (map the data with Dataset.withBiasUnitNorm)",
        maxNorm);
    int n = data.size();
    double[] w = solver.fit(data).model().weights();
    double[] noise = noise(n, w.length, random);
    for (int j = 0; j < w.length; j++) {
      w[j] += noise[j];
    }
    return new Release(new LogisticModel(w), guarantee(), event(n), sensitivity(n), n);
  }

  /** One draw of the noise vector b for n records in dimension d. */
  public double[] noise(int n, int dimension, RandomGenerator random) {
    Require.positive("dimension", dimension);
    Require.nonNull("random", random);
    Optional<NormNoise> norm = normNoise(n, dimension);
    if (norm.isPresent()) {
      return norm.get().sample(random);
    }
    SnappedGaussian gaussian = SnappedGaussian.forSigma(gaussianSigma(n));
    double[] b = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      b[j] = gaussian.sample(random);
    }
    return b;
  }
}
