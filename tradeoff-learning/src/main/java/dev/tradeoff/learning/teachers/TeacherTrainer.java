package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.perturbation.OutputPerturbation;
import java.util.random.RandomGenerator;

/**
 * How one teacher is trained on its shard: non-privately, by DP-SGD or by output perturbation.
 */
public sealed interface TeacherTrainer {

  /**
   * Trains one teacher.
   *
   * @param shard the teacher's training records
   * @param random the source of all randomness of the training (noise, sampling)
   * @param listener receives (step, steps) during iterative training
   */
  Teacher train(Dataset shard, RandomGenerator random, DpSgd.StepListener listener);

  /** Non-private L2-regularised logistic regression, solved to the solver's tolerance. */
  record NonPrivate(LogisticRegression solver) implements TeacherTrainer {
    public NonPrivate {
      Require.nonNull("solver", solver);
    }

    @Override
    public Teacher train(Dataset shard, RandomGenerator random, DpSgd.StepListener listener) {
      Require.nonNull("shard", shard);
      Teacher teacher = Teacher.nonPrivate(solver.fit(shard).model(), shard.size());
      Require.nonNull("listener", listener).stepDone(1, 1);
      return teacher;
    }
  }

  /**
   * DP-SGD; the teacher's (ε, Δ) is computed once by the accountant from (σ, q, T, Δ), under
   * add/remove-one neighbouring.
   *
   * @param dpSgd the training configuration
   * @param delta Δ in (0, 1)
   * @param guarantee the (ε, Δ) the accountant computed: use {@link #of}
   */
  record DpSgdTrainer(DpSgd dpSgd, double delta, ApproxDp guarantee) implements TeacherTrainer {
    public DpSgdTrainer {
      Require.nonNull("dpSgd", dpSgd);
      Require.openUnit("delta", delta);
      Require.nonNull("guarantee", guarantee);
      Require.that(guarantee.delta() == delta, "guarantee.delta", "must equal " + delta,
          guarantee.delta());
    }

    /** The trainer with its guarantee computed by the accountant. */
    public static DpSgdTrainer of(DpSgd dpSgd, double delta, Accountant accountant) {
      return new DpSgdTrainer(dpSgd, delta, dpSgd.guarantee(delta, accountant));
    }

    @Override
    public Teacher train(Dataset shard, RandomGenerator random, DpSgd.StepListener listener) {
      return Teacher.privateTeacher(
          dpSgd.train(shard, random, listener),
          shard.size(),
          new TeacherPrivacy(guarantee, dpSgd.event(), dpSgd.neighbouring()));
    }
  }

  /** Output perturbation (Chaudhuri et al. 2011); its guarantee holds under replace-one. */
  record OutputPerturbationTrainer(OutputPerturbation mechanism) implements TeacherTrainer {
    public OutputPerturbationTrainer {
      Require.nonNull("mechanism", mechanism);
    }

    @Override
    public Teacher train(Dataset shard, RandomGenerator random, DpSgd.StepListener listener) {
      OutputPerturbation.Release release = mechanism.train(shard, random);
      Require.nonNull("listener", listener).stepDone(1, 1);
      PrivacyGuarantee g = release.guarantee();
      ApproxDp approx = g instanceof PureDp pure ? pure.toApproxDp() : (ApproxDp) g;
      return Teacher.privateTeacher(
          release.model(),
          shard.size(),
          new TeacherPrivacy(approx, release.event(), mechanism.neighbouring()));
    }
  }
}
