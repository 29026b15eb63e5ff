package dev.tradeoff.learning.teachers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.FashionMnist;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DpSgdTeachersTest {

  @Test
  void paperNoiseOnPaperShardsGivesThePaperBudget() {
    TeacherTrainer.DpSgdTrainer trainer =
        DpSgdTeachers.withNoise(12, 1, 5, 10_000, 11, 1e-4, new PldAccountant());
    assertThat(DpSgdTeachers.samplingRate(10_000, 11)).isEqualTo(32.0 / 909);
    assertThat(trainer.dpSgd().steps()).isEqualTo(143);
    assertThat(trainer.guarantee().epsilon()).isBetween(0.0845, 0.0855);
  }

  @Test
  void budgetCalibrationMeetsTheBudgetWithTheSmallestSigma() {
    PldAccountant pld = new PldAccountant();
    TeacherTrainer.DpSgdTrainer trainer =
        DpSgdTeachers.forBudget(0.0852, 1e-4, 1, 5, 10_000, 11, pld);
    assertThat(trainer.guarantee().epsilon()).isLessThanOrEqualTo(0.0852);
    assertThat(trainer.dpSgd().noiseMultiplier()).isBetween(11.9, 12.0);
    assertThat(
            DpSgdTeachers.withNoise(trainer.dpSgd().noiseMultiplier() * 0.99, 1, 5, 10_000, 11,
                    1e-4, pld)
                .guarantee()
                .epsilon())
        .isGreaterThan(0.0852);
  }

  @Test
  void tasksMapTrainAndQueriesAlikeAndFailEarlyOnBadInput() {
    BinaryTask task = BinaryTask.shipped(FashionMnist.SANDAL, FashionMnist.BAG);
    assertThat(task.train().size()).isEqualTo(10_000);
    assertThat(task.test().size()).isEqualTo(2_000);
    assertThat(task.train().maxRowNorm()).isLessThanOrEqualTo(1 + 1e-12);
    assertThat(task.test().dimension()).isEqualTo(50);
    assertThatThrownBy(() -> BinaryTask.shipped(5, 3))
        .hasMessage("positiveClass must be a class present in the data [5, 8], but was 3");
    assertThatThrownBy(() -> BinaryTask.fromDirectory(Path.of("/nonexistent/data"), 5, 8))
        .hasMessageContaining("dataset directory /nonexistent/data does not exist");
    assertThatThrownBy(() -> DpSgdTeachers.samplingRate(10, 11))
        .hasMessage("teachers must be <= the number of training records 10, but was 11");
  }
}
