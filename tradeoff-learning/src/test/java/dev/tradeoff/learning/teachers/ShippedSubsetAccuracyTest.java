package dev.tradeoff.learning.teachers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.data.FashionMnist;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.perturbation.OutputPerturbation;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Accuracy on the shipped Fashion-MNIST sandal (5) vs bag (8) split: 10 000 training and 2 000 test
 * images at 7 × 7, features mapped by {@code withBiasUnitNorm(1)}; K = 11 teachers on shards of
 * 909 or 910, the setup of [DaRRM24, Section 6.2].
 */
class ShippedSubsetAccuracyTest {

  static Dataset train;
  static Dataset test;

  @BeforeAll
  static void load() {
    train = FashionMnist.shipped(FashionMnist.Split.TRAIN).binary(5, 8).withBiasUnitNorm(1);
    test = FashionMnist.shipped(FashionMnist.Split.TEST).binary(5, 8).withBiasUnitNorm(1);
  }

  static double majorityAccuracy(TeacherEnsemble ensemble) {
    VoteMatrix votes = ensemble.votes(test);
    int correct = 0;
    for (int q = 0; q < votes.queries(); q++) {
      if (votes.majority(q) == test.label(q)) {
        correct++;
      }
    }
    return (double) correct / votes.queries();
  }

  @Test
  void nonPrivateLogisticRegressionExceedsNinetyPercent() {
    assertThat(new LogisticRegression(1e-3).fit(train).model().accuracy(test)).isGreaterThan(0.95);
    TeacherEnsemble ensemble =
        TeacherEnsemble.train(
            train, 11, 1, new TeacherTrainer.NonPrivate(new LogisticRegression(1e-3)),
            Randomness.seeded(1), TrainingProgress.none());
    assertThat(Arrays.stream(ensemble.accuracies(test)).min().orElseThrow()).isGreaterThan(0.9);
    assertThat(majorityAccuracy(ensemble)).isGreaterThan(0.95);
  }

  @Test
  void dpSgdTeachersAtThePaperBudgetAreAccurateAsAnEnsemble() {
    // σ = 12, C = 1, 5 epochs, expected lot 32 of 909: (ε, Δ) = (0.0851, 1e-4) by PLD.
    DpSgd dpSgd = DpSgd.forEpochs(12, 1, 32.0 / 909, 5, 0.2, 0);
    TeacherTrainer trainer = TeacherTrainer.DpSgdTrainer.of(dpSgd, 1e-4, new PldAccountant());
    double meanTeacher = 0;
    double majority = 0;
    for (long seed = 1; seed <= 2; seed++) {
      TeacherEnsemble ensemble =
          TeacherEnsemble.train(
              train, 11, seed, trainer, Randomness.seeded(seed), TrainingProgress.none());
      ApproxDp g = ensemble.perTeacherPrivacy().orElseThrow().guarantee();
      assertThat(g.epsilon()).isBetween(0.0845, 0.0855);
      assertThat(g.delta()).isEqualTo(1e-4);
      meanTeacher += Arrays.stream(ensemble.accuracies(test)).average().orElseThrow() / 2;
      majority += majorityAccuracy(ensemble) / 2;
    }
    assertThat(meanTeacher).isGreaterThan(0.75);
    assertThat(majority).isGreaterThan(0.9);
  }

  @Test
  void outputPerturbationTeachersAtThePaperBudgetBeatChanceAsAnEnsemble() {
    // Gaussian output perturbation at (0.0852, 1e-4), λ = 0.3: noise σ ≈ 0.36 per weight
    OutputPerturbation mechanism = OutputPerturbation.gaussian(0.0852, 1e-4, 0.3);
    double majority = 0;
    for (long seed = 1; seed <= 2; seed++) {
      TeacherEnsemble ensemble =
          TeacherEnsemble.train(
              train, 11, seed, new TeacherTrainer.OutputPerturbationTrainer(mechanism),
              Randomness.seeded(seed), TrainingProgress.none());
      majority += majorityAccuracy(ensemble) / 2;
    }
    assertThat(majority).isGreaterThan(0.7);
  }
}
