package dev.tradeoff.learning.teachers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.logistic.LogisticModel;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.perturbation.OutputPerturbation;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TeacherEnsembleTest {

  /** n rows whose first feature is the row id, so shards can be traced back. */
  static Dataset idData(int n) {
    double[][] rows = new double[n][];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = new double[] {i, i % 3 == 0 ? 1 : -1};
      labels[i] = i % 3 == 0 ? 1 : 0;
    }
    return Dataset.of(rows, labels);
  }

  @Test
  void shardsAreDisjointCoverTheDataAndDifferInSizeByAtMostOne() {
    for (int n : new int[] {11, 23, 100}) {
      for (int k : new int[] {1, 3, 11}) {
        List<Dataset> shards = TeacherEnsemble.shards(idData(n), k, 42);
        assertThat(shards).hasSize(k);
        Set<Double> seen = new HashSet<>();
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Dataset shard : shards) {
          min = Math.min(min, shard.size());
          max = Math.max(max, shard.size());
          for (int i = 0; i < shard.size(); i++) {
            assertThat(seen.add(shard.feature(i, 0))).isTrue();
          }
        }
        assertThat(seen).hasSize(n);
        assertThat(max - min).isLessThanOrEqualTo(1);
      }
    }
  }

  @Test
  void theShuffleSeedDecidesTheShards() {
    Dataset data = idData(50);
    assertThat(TeacherEnsemble.shards(data, 5, 1).get(0).row(0))
        .containsExactly(TeacherEnsemble.shards(data, 5, 1).get(0).row(0));
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      a.add(TeacherEnsemble.shards(data, 5, 1).get(0).feature(i, 0));
      b.add(TeacherEnsemble.shards(data, 5, 2).get(0).feature(i, 0));
    }
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void moreTeachersThanRecordsIsRejectedBeforeAnyTraining() {
    List<Integer> calls = new ArrayList<>();
    assertThatThrownBy(
            () ->
                TeacherEnsemble.train(
                    idData(5),
                    6,
                    1,
                    new TeacherTrainer.NonPrivate(new LogisticRegression(1)),
                    Randomness.seeded(1),
                    (f, t) -> calls.add(f)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("teachers must be <= the number of training records 5, but was 6");
    assertThat(calls).isEmpty();
  }

  @Test
  void votesAreEachTeachersPredictions() {
    LogisticModel positive = new LogisticModel(new double[] {1, 0});
    LogisticModel negative = new LogisticModel(new double[] {-1, 0});
    TeacherEnsemble ensemble =
        TeacherEnsemble.of(
            List.of(
                Teacher.nonPrivate(positive, 1),
                Teacher.nonPrivate(negative, 1),
                Teacher.nonPrivate(positive, 1)));
    Dataset queries = Dataset.of(new double[][] {{2, 0}, {-3, 1}}, new int[] {1, 0});
    VoteMatrix votes = ensemble.votes(queries);
    assertThat(votes.queries()).isEqualTo(2);
    assertThat(votes.teachers()).isEqualTo(3);
    assertThat(votes.row(0)).containsExactly(1, 0, 1);
    assertThat(votes.row(1)).containsExactly(0, 1, 0);
    assertThat(votes.onesPerQuery()).containsExactly(2, 1);
    assertThat(votes.majority(0)).isEqualTo(1);
    assertThat(votes.majority(1)).isEqualTo(0);
    assertThat(ensemble.perTeacherPrivacy()).isEmpty();
    assertThat(VoteMatrix.of(new int[][] {{1, 0, 1}, {0, 1, 0}}).onesPerQuery())
        .containsExactly(2, 1);
    assertThatThrownBy(() -> VoteMatrix.of(new int[][] {{2}}))
        .hasMessage("votes[0][0] must be in [0, 1], but was 2");
  }

  @Test
  void dpSgdTeachersCarryTheAccountantsGuaranteeAndReportProgress() {
    Dataset data = idData(60).withBiasUnitNorm(1);
    DpSgd dpSgd = DpSgd.forEpochs(2, 1, 0.25, 1, 0.5, 0);
    TeacherTrainer trainer = TeacherTrainer.DpSgdTrainer.of(dpSgd, 1e-5, new PldAccountant());
    List<String> events = new ArrayList<>();
    TrainingProgress progress =
        new TrainingProgress() {
          @Override
          public void teacherFinished(int finished, int teachers) {
            events.add("teacher " + finished + "/" + teachers);
          }

          @Override
          public void stepDone(int teacher, int teachers, int step, int steps) {
            events.add(teacher + ":" + step + "/" + steps);
          }
        };
    TeacherEnsemble ensemble =
        TeacherEnsemble.train(data, 3, 7, trainer, Randomness.seeded(5), progress);
    assertThat(events)
        .containsExactly(
            "1:1/4", "1:2/4", "1:3/4", "1:4/4", "teacher 1/3",
            "2:1/4", "2:2/4", "2:3/4", "2:4/4", "teacher 2/3",
            "3:1/4", "3:2/4", "3:3/4", "3:4/4", "teacher 3/3");
    TeacherPrivacy privacy = ensemble.perTeacherPrivacy().orElseThrow();
    assertThat(privacy.guarantee()).isEqualTo(dpSgd.guarantee(1e-5, new PldAccountant()));
    assertThat(privacy.event()).isEqualTo(dpSgd.event());
    assertThat(privacy.neighbouring()).isEqualTo(Neighbouring.ADD_OR_REMOVE_ONE);
    // the same seeds reproduce the same teachers
    TeacherEnsemble again =
        TeacherEnsemble.train(data, 3, 7, trainer, Randomness.seeded(5), TrainingProgress.none());
    for (int t = 0; t < 3; t++) {
      assertThat(again.teachers().get(t).model().weights())
          .containsExactly(ensemble.teachers().get(t).model().weights());
    }
  }

  @Test
  void outputPerturbationTeachersStateTheirReplaceOneGuarantee() {
    Dataset data = idData(40).withBiasUnitNorm(1);
    TeacherEnsemble ensemble =
        TeacherEnsemble.train(
            data,
            2,
            3,
            new TeacherTrainer.OutputPerturbationTrainer(OutputPerturbation.pure(0.5, 0.1)),
            Randomness.seeded(2),
            TrainingProgress.none());
    TeacherPrivacy privacy = ensemble.perTeacherPrivacy().orElseThrow();
    assertThat(privacy.guarantee()).isEqualTo(new ApproxDp(0.5, 0));
    assertThat(privacy.neighbouring()).isEqualTo(Neighbouring.REPLACE_ONE);
    assertThat(ensemble.teachers()).allSatisfy(t -> assertThat(t.shardSize()).isEqualTo(20));
  }
}
