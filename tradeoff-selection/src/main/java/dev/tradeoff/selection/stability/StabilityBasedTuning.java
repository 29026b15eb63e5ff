package dev.tradeoff.selection.stability;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * [StabVal13, Algorithm 2], end-to-end private training and validation
 * (reconstructed from the proof of Theorem 2 in the appendix): train every candidate θ_1, …, θ_k
 * with an α₁-DP procedure on all of T, select i* with Algorithm 1 ({@link StabilityValidation}) at
 * α₂ on V, release (i*, f_{i*}).
 *
 * <p>Theorem 2: (α₁ + α₂, δ)-DP when the score is (β₁, β₂, δ)-stable for the training procedure at
 * α₁ and k candidates; the k trainings are <em>not</em> paid k times, because only f_{i*} is
 * released and the selection is stable.
 */
public final class StabilityBasedTuning {

  private StabilityBasedTuning() {}

  /**
   * Runs Algorithm 2.
   *
   * @param trainer the α₁-DP training procedure (called with part 0 of 1)
   * @param candidates k ≥ 1
   * @param score q(f, V) on the validation set
   * @param stability the constants of q for this trainer, α₁ and k (Theorems 4, 6)
   * @param n the training size
   * @param m the validation size
   */
  public static <M> Tuned<M> run(PrivateTrainer<M> trainer, int candidates,
      ToDoubleFunction<M> score, StabilityConstants stability, int n, int m, double alpha1,
      double alpha2, RandomGenerator random) {
    Require.nonNull("trainer", trainer);
    Require.positive("candidates", candidates);
    Require.nonNull("score", score);
    Require.nonNull("stability", stability);
    Require.positive("alpha1", alpha1);
    Require.positive("alpha2", alpha2);
    Require.nonNull("random", random);
    double beta = stability.beta(n, m);
    List<M> models = new ArrayList<>(candidates);
    double[] scores = new double[candidates];
    for (int i = 0; i < candidates; i++) {
      M f = Require.nonNull("trained model", trainer.train(i, 0, 1, alpha1, random));
      models.add(f);
      scores[i] = score.applyAsDouble(f);
    }
    int chosen = StabilityValidation.select(scores, beta, alpha2, random);
    return new Tuned<>(chosen, models.get(chosen), guarantee(alpha1, alpha2, stability));
  }

  /** Theorem 2: (α₁ + α₂, δ)-DP, ε rounded up. */
  public static ApproxDp guarantee(double alpha1, double alpha2, StabilityConstants stability) {
    Require.positive("alpha1", alpha1);
    Require.positive("alpha2", alpha2);
    Require.nonNull("stability", stability);
    return new ApproxDp(SafeSum.up(alpha1, alpha2), stability.delta());
  }
}
