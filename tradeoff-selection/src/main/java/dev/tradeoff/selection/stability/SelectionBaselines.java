package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.selection.ExponentialMechanism;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * The baselines of [StabVal13, Theorem 5] (statement reconstructed from its proof
 * in appendix Section 6.7): with total privacy α,
 *
 * <ul>
 *   <li><b>alphaSplit</b>: train each of the k candidates on all of T at α/k (basic composition: α),
 *       then choose i* by the exponential mechanism on the validation scores at α;
 *   <li><b>dataSplit</b>: cut T into k disjoint parts, train candidate i on part i at α (parallel
 *       composition, Lemma 4: α), then choose i* by the exponential mechanism at α;
 *   <li><b>Random</b>: choose i* uniformly without looking at the data, train it on T at α.
 * </ul>
 *
 * Guarantees (Theorem 5): alphaSplit and dataSplit are α-DP when T and V are disjoint parts of the
 * data (parallel composition of training and validation) and 2α-DP otherwise; Random is α-DP. The
 * exponential mechanism here is ∝ exp(α u_i/(2Δ)) for scores u_i of validation sensitivity Δ
 * (the paper's ∝ exp(−ε e_i) with ε = α/2 for error counts, Δ = 1), sampled exactly.
 */
public final class SelectionBaselines {

  private SelectionBaselines() {}

  /** alphaSplit. */
  public static <M> Tuned<M> alphaSplit(PrivateTrainer<M> trainer, int candidates,
      ToDoubleFunction<M> score, double scoreSensitivity, double alpha, boolean disjoint,
      RandomGenerator random) {
    Require.positive("alpha", alpha);
    Require.positive("candidates", candidates);
    double each = Math.nextDown(alpha / candidates);
    return selectByExponentialMechanism(trainer, candidates, 1, each, score, scoreSensitivity,
        alpha, disjoint, random);
  }

  /** dataSplit. */
  public static <M> Tuned<M> dataSplit(PrivateTrainer<M> trainer, int candidates,
      ToDoubleFunction<M> score, double scoreSensitivity, double alpha, boolean disjoint,
      RandomGenerator random) {
    Require.positive("candidates", candidates);
    return selectByExponentialMechanism(trainer, candidates, candidates, alpha, score,
        scoreSensitivity, alpha, disjoint, random);
  }

  /** Random. */
  public static <M> Tuned<M> random(PrivateTrainer<M> trainer, int candidates, double alpha,
      RandomGenerator random) {
    Require.nonNull("trainer", trainer);
    Require.positive("candidates", candidates);
    Require.positive("alpha", alpha);
    Require.nonNull("random", random);
    int chosen = random.nextInt(candidates);
    M model = Require.nonNull("trained model", trainer.train(chosen, 0, 1, alpha, random));
    return new Tuned<>(chosen, model, new ApproxDp(alpha, 0));
  }

  /** Theorem 5 for alphaSplit and dataSplit: α if T and V are disjoint, else 2α. */
  public static ApproxDp guarantee(double alpha, boolean disjoint) {
    Require.positive("alpha", alpha);
    return new ApproxDp(disjoint ? alpha : SafeSum.up(alpha, alpha), 0);
  }

  private static <M> Tuned<M> selectByExponentialMechanism(PrivateTrainer<M> trainer,
      int candidates, int parts, double trainAlpha, ToDoubleFunction<M> score,
      double scoreSensitivity, double alpha, boolean disjoint, RandomGenerator random) {
    Require.nonNull("trainer", trainer);
    Require.nonNull("score", score);
    Require.nonNull("random", random);
    ExponentialMechanism selection =
        ExponentialMechanism.of(alpha, scoreSensitivity);
    List<M> models = new ArrayList<>(candidates);
    double[] scores = new double[candidates];
    for (int i = 0; i < candidates; i++) {
      M f = Require.nonNull("trained model",
          trainer.train(i, parts == 1 ? 0 : i, parts, trainAlpha, random));
      models.add(f);
      scores[i] = score.applyAsDouble(f);
    }
    int chosen = selection.select(scores, random);
    return new Tuned<>(chosen, models.get(chosen), guarantee(alpha, disjoint));
  }
}
