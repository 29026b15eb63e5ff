package dev.tradeoff.experiments.stability;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.stability.BetaDensity;
import dev.tradeoff.selection.stability.DpHistogramEstimator;
import dev.tradeoff.selection.stability.HistogramDensity;
import dev.tradeoff.selection.stability.HistogramStability;
import dev.tradeoff.selection.stability.PrivateTrainer;
import dev.tradeoff.selection.stability.SelectionBaselines;
import dev.tradeoff.selection.stability.StabilityBasedTuning;
import dev.tradeoff.selection.stability.StabilityConstants;
import dev.tradeoff.selection.stability.Tuned;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The histogram case study of [StabVal13, appendix Section 6.3], end to end:
 * training and validation data drawn from a known density, the bin width h chosen among candidates
 * by each of the four methods at the same total privacy α, and the released estimate scored by its
 * true integrated squared error ‖f̂ − f‖².
 *
 * <ul>
 *   <li>{@link Method#STABILITY}: Algorithm 2 with Algorithm 5 at α₁ = split·α and Algorithm 1 at
 *       α₂ = α − α₁, constants of Theorem 6: (α, δ)-DP;
 *   <li>{@link Method#ALPHA_SPLIT}, {@link Method#DATA_SPLIT}: Theorem 5 with T, V disjoint: α-DP,
 *       scores of validation sensitivity Δ = 2/(h_min m) (eq. 18);
 *   <li>{@link Method#RANDOM}: α-DP.
 * </ul>
 *
 * Each repetition is seeded explicitly ({@link Randomness#seeded}): this is a simulation, not a
 * release. As a yardstick, every candidate h is also fitted alone at the full α on all of T
 * ({@link Result#fixedIse}).
 *
 * @param truth the data density
 * @param trainSize n
 * @param validationSize m
 * @param alpha the total privacy α of every method
 * @param delta δ of the stability method
 * @param stabilitySplit the fraction of α spent on training by the stability method, in (0, 1)
 * @param binCounts 1/h for each candidate
 * @param repetitions the number of seeds
 * @param seed the first seed (repetition r uses seed + r)
 */
public record HistogramSelectionExperiment(BetaDensity truth, int trainSize, int validationSize,
    double alpha, double delta, double stabilitySplit, int[] binCounts, int repetitions,
    long seed) {

  /** The paper's candidate widths h ∈ {1/5, 1/10, 1/20, 1/50, 1/100}. */
  public static final int[] PAPER_BIN_COUNTS = {5, 10, 20, 50, 100};

  /** The four methods compared. */
  public enum Method {
    STABILITY, ALPHA_SPLIT, DATA_SPLIT, RANDOM
  }

  public HistogramSelectionExperiment {
    Require.nonNull("truth", truth);
    Require.positive("trainSize", trainSize);
    Require.positive("validationSize", validationSize);
    Require.positive("alpha", alpha);
    Require.openUnit("delta", delta);
    Require.openUnit("stabilitySplit", stabilitySplit);
    Require.nonNull("binCounts", binCounts);
    binCounts = binCounts.clone();
    Require.that(binCounts.length >= 2, "binCounts", "must hold at least 2 candidates",
        Arrays.toString(binCounts));
    Require.that(trainSize >= binCounts.length, "trainSize", "must be >= the number of candidates",
        trainSize);
    Require.positive("repetitions", repetitions);
    HistogramStability.constants(trainSize, alpha * stabilitySplit, binCounts, delta);
  }

  @Override
  public int[] binCounts() {
    return binCounts.clone();
  }

  /**
   * One method's outcome over all repetitions.
   *
   * @param method the method
   * @param guarantee its privacy guarantee
   * @param meanIse mean ‖f̂ − f‖² of the released estimate
   * @param standardError the standard error of that mean
   * @param chosen how often each candidate was chosen
   */
  public record MethodResult(Method method, ApproxDp guarantee, double meanIse,
      double standardError, int[] chosen) {}

  /**
   * The whole comparison.
   *
   * @param methods one result per {@link Method}, in order
   * @param fixedIse mean ‖f̂ − f‖² of each candidate fitted alone at α on all of T
   * @param stability the Theorem 6 constants used
   * @param noiseMean the mean 2β/α₂ of the stability method's exponential noise
   */
  public record Result(List<MethodResult> methods, double[] fixedIse, StabilityConstants stability,
      double noiseMean) {}

  /** Runs every repetition. */
  public Result run() {
    int k = binCounts.length;
    double alpha1 = alpha * stabilitySplit;
    double alpha2 = Math.nextDown(alpha - alpha1);
    StabilityConstants constants =
        HistogramStability.constants(trainSize, alpha1, binCounts, delta);
    double beta = constants.beta(trainSize, validationSize);
    int maxBins = Arrays.stream(binCounts).max().orElseThrow();
    double sensitivity = Math.nextUp(2.0 * maxBins / validationSize);
    Method[] methods = Method.values();
    double[][] ise = new double[methods.length][repetitions];
    int[][] chosen = new int[methods.length][k];
    double[] fixed = new double[k];
    ApproxDp[] guarantees = new ApproxDp[methods.length];
    for (int r = 0; r < repetitions; r++) {
      RandomGenerator random = Randomness.seeded(seed + r);
      double[] train = truth.sample(trainSize, random);
      double[] validation = truth.sample(validationSize, random);
      PrivateTrainer<HistogramDensity> trainer = (candidate, part, parts, a, g) ->
          DpHistogramEstimator.fit(part(train, part, parts), binCounts[candidate], a, g);
      for (Method method : methods) {
        Tuned<HistogramDensity> t = switch (method) {
          case STABILITY -> StabilityBasedTuning.run(trainer, k, f -> f.score(validation),
              constants, trainSize, validationSize, alpha1, alpha2, random);
          case ALPHA_SPLIT -> SelectionBaselines.alphaSplit(trainer, k, f -> f.score(validation),
              sensitivity, alpha, true, random);
          case DATA_SPLIT -> SelectionBaselines.dataSplit(trainer, k, f -> f.score(validation),
              sensitivity, alpha, true, random);
          case RANDOM -> SelectionBaselines.random(trainer, k, alpha, random);
        };
        ise[method.ordinal()][r] = t.model().integratedSquaredError(truth);
        chosen[method.ordinal()][t.index()]++;
        guarantees[method.ordinal()] = t.guarantee();
      }
      for (int c = 0; c < k; c++) {
        fixed[c] += DpHistogramEstimator.fit(train, binCounts[c], alpha, random)
            .integratedSquaredError(truth) / repetitions;
      }
    }
    List<MethodResult> results = new ArrayList<>();
    for (Method method : methods) {
      double[] x = ise[method.ordinal()];
      double mean = Arrays.stream(x).average().orElseThrow();
      double var = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum()
          / Math.max(1, repetitions - 1);
      results.add(new MethodResult(method, guarantees[method.ordinal()], mean,
          Math.sqrt(var / repetitions), chosen[method.ordinal()]));
    }
    return new Result(List.copyOf(results), fixed, constants, 2 * beta / alpha2);
  }

  /** Part {@code part} of {@code parts} nearly equal contiguous parts (the data are iid). */
  static double[] part(double[] data, int part, int parts) {
    int from = (int) ((long) data.length * part / parts);
    int to = (int) ((long) data.length * (part + 1) / parts);
    return Arrays.copyOfRange(data, from, to);
  }
}
