package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.data.MulticlassData;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.softmax.SoftmaxDpSgd;
import dev.tradeoff.learning.softmax.SoftmaxModel;
import dev.tradeoff.learning.softmax.SoftmaxRegression;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.io.Serializable;
import java.util.random.RandomGenerator;

/**
 * How one teacher is trained on the rows of its own partition (possibly none). Serializable, so
 * it travels to the workers; the privacy of a private trainer is accounted in
 * {@link LabelPrivacy}, from {@link LabelPrivacy#teacherEvent}.
 */
public sealed interface PartitionTrainer extends Serializable {

  /**
   * The model of one teacher.
   *
   * @param rows the partition's rows (the features already mapped), possibly none
   * @param random the teacher's own randomness
   */
  TeacherModel train(int teacher, MulticlassData rows, RandomGenerator random);

  /** What the model is, for the manifest and {@code --help}. */
  String describe();

  /**
   * Softmax (multinomial logistic) regression over all classes at once: by DP-SGD
   * ({@link SoftmaxDpSgd}) when private, by L-BFGS ({@link SoftmaxRegression}) otherwise.
   *
   * <p>The private trainer never uses the partition's true size: DP-SGD divides its noisy
   * gradient sum by q·n̂, where n̂ = n + N(0, σ_c²) is the partition's size released by the
   * Gaussian mechanism (sensitivity 1 under add/remove of one record) and floored so that q·n̂ ≥
   * 1. That count is part of the teacher's mechanism and of its accounting event (a Gaussian of
   * noise multiplier σ_c composed with the T DP-SGD steps).
   *
   * @param dpSgd DP-SGD, or null for a non-private teacher
   * @param countSigma σ_c of the noisy partition size (private teachers only)
   * @param lambda the L2 regularisation of a non-private teacher
   */
  record Softmax(SoftmaxDpSgd dpSgd, double countSigma, double lambda)
      implements PartitionTrainer {

    /** λ of a non-private teacher. */
    public static final double NON_PRIVATE_LAMBDA = 1e-4;

    public Softmax {
      if (dpSgd != null) {
        Require.positive("countSigma", countSigma);
      }
      Require.positive("lambda", lambda);
    }

    /**
     * A private teacher whose noisy count alone would be (ε/20, δ)-DP by the classical Gaussian
     * bound (σ_c = √(2 ln(1.25/δ)) / (ε/20), Dwork and Roth 2014, Theorem A.1), for the
     * teacher's target (ε, δ): a small share of the budget whatever it is (at (1, 1e-5), σ_c ≈ 97,
     * a partition of 10,000 rows known to ±1%).
     */
    public static Softmax dp(SoftmaxDpSgd dpSgd, double epsilon, double delta) {
      double sigma = Math.sqrt(2 * Math.log(1.25 / delta)) / (epsilon / 20);
      return new Softmax(Require.nonNull("dpSgd", dpSgd), sigma, NON_PRIVATE_LAMBDA);
    }

    /** A non-private teacher (GNMax's). */
    public static Softmax nonPrivate() {
      return new Softmax(null, 1, NON_PRIVATE_LAMBDA);
    }

    @Override
    public TeacherModel train(int teacher, MulticlassData rows, RandomGenerator random) {
      SoftmaxModel model;
      if (dpSgd == null) {
        model = rows.size() == 0 ? SoftmaxModel.zero(rows.classes(), rows.dimension())
            : new SoftmaxRegression(lambda).fit(rows);
      } else {
        double noisyCount = rows.size() + SnappedGaussian.forSigma(countSigma).sample(random);
        double expectedBatch = Math.max(dpSgd.samplingRate() * noisyCount, 1);
        model = dpSgd.train(rows, expectedBatch, random);
      }
      double[][] weights = new double[model.classes()][];
      for (int c = 0; c < weights.length; c++) {
        weights[c] = java.util.Arrays.copyOfRange(model.weights(), c * model.dimension(),
            (c + 1) * model.dimension());
      }
      return new TeacherModel(teacher, weights);
    }

    @Override
    public String describe() {
      return dpSgd == null
          ? "softmax regression (multinomial logistic, L2 " + lambda + ", L-BFGS), not private"
          : "softmax regression (multinomial logistic) trained by DP-SGD: noise multiplier "
              + dpSgd.noiseMultiplier() + ", clip " + dpSgd.clipNorm() + ", sampling rate "
              + dpSgd.samplingRate() + ", " + dpSgd.steps() + " steps, learning rate "
              + dpSgd.learningRate() + "; normalised by a noisy partition size (sigma "
              + countSigma + ")";
    }
  }

  /**
   * [DaRRM24, Section 6.2]'s teachers: L2-regularised logistic regression on two classes (one
   * weight vector; one vector per class, one-vs-rest, for more), by DP-SGD ({@link DpSgd}, two
   * classes only) or non-privately.
   *
   * @param dpSgd DP-SGD, or null for a non-private teacher
   */
  record Logistic(DpSgd dpSgd) implements PartitionTrainer {

    /** λ of the non-private teachers' regulariser. */
    public static final double NON_PRIVATE_LAMBDA = 1e-2;

    /** The non-private solver's tolerance (a vote needs the sign of a margin, not 1e-8). */
    public static final double NON_PRIVATE_TOLERANCE = 1e-5;

    @Override
    public TeacherModel train(int teacher, MulticlassData rows, RandomGenerator random) {
      int vectors = rows.classes() == 2 ? 1 : rows.classes();
      Require.that(dpSgd == null || vectors == 1, "classes", "must be 2 for DP-SGD logistic "
          + "teachers (one DP-SGD run per model)", rows.classes());
      int d = rows.dimension();
      double[] features = new double[rows.size() * d];
      for (int i = 0; i < rows.size(); i++) {
        System.arraycopy(rows.row(i), 0, features, i * d, d);
      }
      double[][] weights = new double[vectors][];
      for (int c = 0; c < vectors; c++) {
        int positive = vectors == 1 ? 1 : c;
        int[] y = new int[rows.size()];
        for (int i = 0; i < y.length; i++) {
          y[i] = rows.label(i) == positive ? 1 : 0;
        }
        Dataset data = Dataset.ofFlat(d, features, y);
        weights[c] = dpSgd != null ? dpSgd.train(data, random).weights()
            : new LogisticRegression(NON_PRIVATE_LAMBDA, NON_PRIVATE_TOLERANCE,
                LogisticRegression.DEFAULT_MAX_ITERATIONS).fit(data).model().weights();
      }
      return new TeacherModel(teacher, weights);
    }

    @Override
    public String describe() {
      return dpSgd == null ? "logistic regression (L2 " + NON_PRIVATE_LAMBDA + "), not private"
          : "logistic regression trained by DP-SGD (noise multiplier " + dpSgd.noiseMultiplier()
              + ")";
    }
  }
}
