package dev.tradeoff.learning.dpsgd;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticLoss;
import dev.tradeoff.learning.logistic.LogisticModel;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.util.random.RandomGenerator;

/**
 * DP-SGD (Abadi et al. 2016, "Deep Learning with Differential Privacy", Algorithm 1) for
 * L2-regularised logistic regression, with Poisson subsampling as analysed by Mironov, Talwar and
 * Zhang (2019) and by the PLD accountant. Each of T steps:
 *
 * <ol>
 *   <li>keeps each of the n records independently with probability q (a lot of expected size qn);
 *   <li>clips each kept record's loss gradient gᵢ to L2 norm C: gᵢ · min(1, C/‖gᵢ‖);
 *   <li>adds N(0, σ²C²I) to the sum of clipped gradients and divides by the expected lot size qn
 *       (a fixed number, so the update is post-processing of the noisy sum);
 *   <li>steps w ← w − η(noisy mean + λw); the regulariser does not touch the data.
 * </ol>
 *
 * <p>Accounting: the run is the event {@code SelfComposedEvent(PoissonSampledEvent(q,
 * GaussianEvent(σ)), T)} (σ = noise multiplier: the noise standard deviation divided by the
 * sensitivity C) under {@link Neighbouring#ADD_OR_REMOVE_ONE}; (ε, δ) is computed from it by an
 * accountant ({@link #guarantee(double, Accountant)}), never assumed. With epochs E, T = ⌈E/q⌉.
 *
 * <p>Noise: each coordinate is a {@link SnappedGaussian} with parameter σC (an exact discrete
 * Gaussian on a lattice 2^−40 times finer than σC); the accounting treats it as the continuous
 * Gaussian it approximates (REPRODUCTION.md, "Learning"). Poisson sampling uses
 * {@code random.nextDouble() < q}, exact to 2^−53 in q.
 *
 * @param noiseMultiplier σ &gt; 0
 * @param clipNorm C &gt; 0
 * @param samplingRate q in (0, 1]
 * @param steps T ≥ 1
 * @param learningRate η &gt; 0
 * @param lambda the L2 regularisation λ ≥ 0
 */
public record DpSgd(
    double noiseMultiplier,
    double clipNorm,
    double samplingRate,
    int steps,
    double learningRate,
    double lambda) implements java.io.Serializable {

  public DpSgd {
    Require.positive("noiseMultiplier", noiseMultiplier);
    Require.positive("clipNorm", clipNorm);
    Require.that(
        samplingRate > 0 && samplingRate <= 1, "samplingRate", "must be in (0, 1]", samplingRate);
    Require.positive("steps", steps);
    Require.positive("learningRate", learningRate);
    Require.nonNegative("lambda", lambda);
  }

  /**
   * T = ⌈epochs/q⌉ steps, the usual count of E passes over the data in expectation.
   *
   * @param epochs E &gt; 0, with E/q ≤ 2³¹ − 1
   */
  public static int stepsForEpochs(double epochs, double samplingRate) {
    Require.positive("epochs", epochs);
    Require.that(
        samplingRate > 0 && samplingRate <= 1, "samplingRate", "must be in (0, 1]", samplingRate);
    double steps = Math.ceil(epochs / samplingRate);
    Require.that(steps <= Integer.MAX_VALUE, "epochs / samplingRate", "must be < 2^31", steps);
    return (int) steps;
  }

  /** DP-SGD running for the given number of epochs: T = {@link #stepsForEpochs}. */
  public static DpSgd forEpochs(
      double noiseMultiplier,
      double clipNorm,
      double samplingRate,
      double epochs,
      double learningRate,
      double lambda) {
    return new DpSgd(
        noiseMultiplier,
        clipNorm,
        samplingRate,
        stepsForEpochs(epochs, samplingRate),
        learningRate,
        lambda);
  }

  /** The accounting event of one run: T-fold Poisson-sampled Gaussian(σ). */
  public DpEvent event() {
    return event(noiseMultiplier, samplingRate, steps);
  }

  /** {@code SelfComposedEvent(PoissonSampledEvent(q, GaussianEvent(σ)), T)}. */
  public static DpEvent event(double noiseMultiplier, double samplingRate, int steps) {
    return new SelfComposedEvent(
        new PoissonSampledEvent(samplingRate, new GaussianEvent(noiseMultiplier)), steps);
  }

  /** {@link Neighbouring#ADD_OR_REMOVE_ONE}: the relation Poisson subsampling amplifies. */
  public Neighbouring neighbouring() {
    return Neighbouring.ADD_OR_REMOVE_ONE;
  }

  /**
   * (ε, δ) of one run, ε computed by the accountant from (σ, q, T, δ) and rounded up (the
   * accountant's profile is an upper bound).
   *
   * @param delta δ in (0, 1)
   */
  public ApproxDp guarantee(double delta, Accountant accountant) {
    Require.openUnit("delta", delta);
    Require.nonNull("accountant", accountant);
    return accountant.account(event(), neighbouring()).atDelta(delta);
  }

  /** {@link #guarantee(double, Accountant)} with the default {@link PldAccountant}. */
  public ApproxDp guarantee(double delta) {
    return guarantee(delta, new PldAccountant());
  }

  /**
   * The smallest noise multiplier σ (rounded up, per {@link GaussianCalibrator}) such that T steps
   * at rate q meet (ε, δ) according to the accountant: the reverse of {@link #guarantee}.
   */
  public static double calibrateNoiseMultiplier(
      double samplingRate, int steps, double epsilon, double delta, Accountant accountant) {
    Require.that(
        samplingRate > 0 && samplingRate <= 1, "samplingRate", "must be in (0, 1]", samplingRate);
    Require.positive("steps", steps);
    return new GaussianCalibrator(accountant)
        .sigma(s -> event(s, samplingRate, steps), epsilon, delta, Neighbouring.ADD_OR_REMOVE_ONE);
  }

  /** This configuration with another noise multiplier. */
  public DpSgd withNoiseMultiplier(double sigma) {
    return new DpSgd(sigma, clipNorm, samplingRate, steps, learningRate, lambda);
  }

  /** Receives (step, total steps) after each step; for progress bars. */
  @FunctionalInterface
  public interface StepListener {
    /** Called after step {@code step} of {@code steps} (1-based). */
    void stepDone(int step, int steps);

    /** A listener that ignores every call. */
    static StepListener none() {
      return (step, steps) -> {};
    }
  }

  /** Runs T steps from w = 0 and returns the final iterate. */
  public LogisticModel train(Dataset data, RandomGenerator random) {
    return train(data, random, StepListener.none());
  }

  /**
   * Runs T steps from w = 0 and returns the final iterate.
   *
   * @param random the source of the Poisson samples and the noise: {@code Randomness.secure()} in
   *     production
   */
  public LogisticModel train(Dataset data, RandomGenerator random, StepListener listener) {
    Require.nonNull("data", data);
    Require.nonNull("random", random);
    Require.nonNull("listener", listener);
    int n = data.size();
    int d = data.dimension();
    double lot = samplingRate * n;
    SnappedGaussian noise = SnappedGaussian.forSigma(noiseMultiplier * clipNorm);
    double[] w = new double[d];
    double[] sum = new double[d];
    for (int t = 1; t <= steps; t++) {
      java.util.Arrays.fill(sum, 0);
      for (int i = 0; i < n; i++) {
        if (random.nextDouble() < samplingRate) {
          addClippedGradient(data, i, w, sum);
        }
      }
      for (int j = 0; j < d; j++) {
        double noisyMean = (sum[j] + noise.sample(random)) / lot;
        w[j] -= learningRate * (noisyMean + lambda * w[j]);
      }
      listener.stepDone(t, steps);
    }
    return new LogisticModel(w);
  }

  /** sum += gᵢ · min(1, C/‖gᵢ‖) for the loss gradient gᵢ = ℓ′(⟨w, xᵢ⟩)·xᵢ of row i. */
  void addClippedGradient(Dataset data, int i, double[] w, double[] sum) {
    double derivative = LogisticLoss.marginDerivative(data.dot(i, w), data.label(i));
    double norm = Math.abs(derivative) * data.rowNorm(i);
    double scale = norm > clipNorm ? derivative * (clipNorm / norm) : derivative;
    data.addScaledRow(i, scale, sum);
  }

  /** gᵢ · min(1, C/‖gᵢ‖): the clipped gradient of row i at w. */
  public double[] clippedGradient(Dataset data, int i, double[] w) {
    Require.nonNull("data", data);
    Require.nonNull("w", w);
    double[] g = new double[data.dimension()];
    addClippedGradient(data, i, w, g);
    return g;
  }
}
