package dev.tradeoff.learning.softmax;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.MulticlassData;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.io.Serializable;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * DP-SGD (Abadi et al. 2016, "Deep Learning with Differential Privacy", Algorithm 1) for
 * L2-regularised multinomial logistic (softmax) regression ({@link SoftmaxLoss}) over C classes and
 * d features, with Poisson subsampling. From W = 0, each of T steps:
 *
 * <ol>
 *   <li>keeps each record independently with probability q;
 *   <li>takes each kept record's cross-entropy gradient, the C×d outer product
 *       gᵢ = (pᵢ − e_{yᵢ}) ⊗ xᵢ, and clips it <em>jointly</em> to Frobenius norm C:
 *       gᵢ · min(1, C/‖gᵢ‖_F), where ‖gᵢ‖_F = ‖pᵢ − e_{yᵢ}‖₂·‖xᵢ‖₂ (the norm of an outer product
 *       is the product of the norms, computed that way);
 *   <li>adds independent N(0, σ²C²) noise to each of the C·d coordinates of the sum of clipped
 *       gradients and divides by {@code expectedBatch}, a public number the caller supplies (for
 *       instance q times a public bound on the partition's size) — never the data's row count,
 *       which is private;
 *   <li>steps W ← W − η(noisy sum/expectedBatch + λW); the regulariser does not touch the data.
 * </ol>
 *
 * <p>Why the C classes cost one DP-SGD run, not C: the whole C×d gradient of a record is treated as
 * one vector in ℝ^{C·d} and clipped once, so adding or removing one record changes the summed C×d
 * matrix by at most C in Frobenius (that is, L2) norm. Adding N(0, σ²C²) to every coordinate is then
 * a single Gaussian mechanism of L2 sensitivity C and noise multiplier σ on the whole update —
 * exactly the step binary {@link DpSgd} takes on its d-vector. Clipping each class's row separately
 * to C would instead give sensitivity C√C (or C separate mechanisms to compose).
 *
 * <p>Accounting: the run is {@link DpSgd#event(double, double, int)} with (σ, q, T) under {@link
 * Neighbouring#ADD_OR_REMOVE_ONE}, the same event as binary DP-SGD; (ε, δ) comes from an accountant.
 * Noise: each coordinate is a {@link SnappedGaussian} with parameter σC, as in {@link DpSgd}; the
 * accounting treats it as the continuous Gaussian it approximates (REPRODUCTION.md, "Learning").
 * Poisson sampling draws the gaps between kept records rather than a coin per record
 * ({@link #nextSampled}): a gap G = ⌊ln U / ln(1 − q)⌋ with U uniform on (0, 1] has P(G ≥ k) =
 * (1 − q)^k, so the kept records are exactly those of independent coins with probability q (up to
 * the 2^−53 resolution of U and one rounding of the logarithms, as {@code nextDouble() < q} is exact
 * to 2^−53), at about q·n draws a step instead of n — a secure generator's draws are what a step
 * costs otherwise.
 *
 * <p>Zero rows are allowed: an empty partition trains on noise alone and returns a finite model, so
 * whether a partition is empty never shows as a failure.
 *
 * @param noiseMultiplier σ &gt; 0
 * @param clipNorm C &gt; 0
 * @param samplingRate q in (0, 1]
 * @param steps T ≥ 1
 * @param learningRate η &gt; 0
 * @param lambda the L2 regularisation λ ≥ 0
 */
public record SoftmaxDpSgd(
    double noiseMultiplier,
    double clipNorm,
    double samplingRate,
    int steps,
    double learningRate,
    double lambda) implements Serializable {

  public SoftmaxDpSgd {
    Require.positive("noiseMultiplier", noiseMultiplier);
    Require.positive("clipNorm", clipNorm);
    Require.that(
        samplingRate > 0 && samplingRate <= 1, "samplingRate", "must be in (0, 1]", samplingRate);
    Require.positive("steps", steps);
    Require.positive("learningRate", learningRate);
    Require.nonNegative("lambda", lambda);
  }

  /** The accounting event of one run: {@link DpSgd#event(double, double, int)} with (σ, q, T). */
  public DpEvent event() {
    return DpSgd.event(noiseMultiplier, samplingRate, steps);
  }

  /** {@link Neighbouring#ADD_OR_REMOVE_ONE}: the relation Poisson subsampling amplifies. */
  public Neighbouring neighbouring() {
    return Neighbouring.ADD_OR_REMOVE_ONE;
  }

  /**
   * Runs T steps from W = 0 and returns the final iterate.
   *
   * @param data n ≥ 0 rows of C classes
   * @param expectedBatch the public normaliser of the noisy gradient sum, &gt; 0
   * @param random the source of the Poisson samples and the noise: {@code Randomness.secure()} in
   *     production
   */
  public SoftmaxModel train(MulticlassData data, double expectedBatch, RandomGenerator random) {
    Require.nonNull("data", data);
    Require.positive("expectedBatch", expectedBatch);
    Require.nonNull("random", random);
    int n = data.size();
    int size = data.classes() * data.dimension();
    SnappedGaussian noise = SnappedGaussian.forSigma(noiseMultiplier * clipNorm);
    double[] w = new double[size];
    double[] sum = new double[size];
    double[] scratch = new double[data.classes()];
    double logKeep = Math.log1p(-samplingRate); // −∞ for q = 1: every record is kept
    for (int t = 1; t <= steps; t++) {
      Arrays.fill(sum, 0);
      for (int i = nextSampled(-1, n, logKeep, random); i < n;
          i = nextSampled(i, n, logKeep, random)) {
        addClippedGradient(data, i, w, scratch, sum);
      }
      for (int k = 0; k < size; k++) {
        double noisyMean = (sum[k] + noise.sample(random)) / expectedBatch;
        w[k] -= learningRate * (noisyMean + lambda * w[k]);
      }
    }
    return new SoftmaxModel(data.classes(), data.dimension(), w);
  }

  /**
   * The next record after {@code i} that Poisson sampling keeps, or {@code n} if none: i + 1 + G
   * with G = ⌊ln U / ln(1 − q)⌋ geometric (P(G ≥ k) = (1 − q)^k), U uniform on (0, 1].
   *
   * @param logKeep ln(1 − q), −∞ for q = 1
   */
  static int nextSampled(int i, int n, double logKeep, RandomGenerator random) {
    double gap = logKeep == Double.NEGATIVE_INFINITY ? 0
        : Math.floor(Math.log(1 - random.nextDouble()) / logKeep);
    return gap >= n - 1 - i ? n : i + 1 + (int) gap;
  }

  /**
   * gᵢ · min(1, C/‖gᵢ‖_F): the jointly clipped cross-entropy gradient of row i at the row-major
   * C×d weights.
   */
  public double[] clippedGradient(MulticlassData data, int i, double[] weights) {
    Require.nonNull("data", data);
    Require.inClosedRange("i", i, 0, data.size() - 1);
    Require.nonNull("weights", weights);
    long expected = (long) data.classes() * data.dimension();
    Require.that(weights.length == expected, "weights.length",
        "must equal classes * dimension = " + expected, weights.length);
    double[] g = new double[weights.length];
    addClippedGradient(data, i, weights, new double[data.classes()], g);
    return g;
  }

  /** sum += gᵢ · min(1, C/‖gᵢ‖_F), using {@code scratch} (length C) for p − e_y. */
  private void addClippedGradient(
      MulticlassData data, int i, double[] w, double[] scratch, double[] sum) {
    data.scores(i, w, scratch);
    SoftmaxLoss.softmaxInPlace(scratch);
    scratch[data.label(i)] -= 1;
    double squared = 0;
    for (double v : scratch) {
      squared += v * v;
    }
    double norm = Math.sqrt(squared) * data.rowNorm(i);
    if (norm > clipNorm) {
      double scale = clipNorm / norm;
      for (int c = 0; c < scratch.length; c++) {
        scratch[c] *= scale;
      }
    }
    data.addOuterProduct(i, scratch, sum);
  }
}
