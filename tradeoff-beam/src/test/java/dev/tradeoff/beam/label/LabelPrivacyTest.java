package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.learning.dpsgd.DpSgd;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LabelPrivacyTest {

  @Test
  void dpMajorityTrainsEachTeacherToTheWholeBudgetWhateverQ() {
    ApproxDp budget = new ApproxDp(1, 1e-5);
    LabelPrivacy one = LabelPrivacy.derive(new LabelPrivacy.Target(budget, Aggregator.DP_MAJORITY,
        1, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), 1);
    LabelPrivacy many = LabelPrivacy.derive(new LabelPrivacy.Target(budget, Aggregator.DP_MAJORITY,
        7, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), 1_000_000);
    assertThat(many.total()).isEqualTo(one.total());
    assertThat(one.total().epsilon()).isLessThanOrEqualTo(1).isGreaterThan(0.99);
    PartitionTrainer.Softmax teacher = (PartitionTrainer.Softmax) one.trainer();
    assertThat(teacher.dpSgd().steps()).isEqualTo(500);
    // the charge is the teacher event itself: the noisy count composed with DP-SGD's steps
    RunGuarantee direct = RunGuarantee.of(List.of(new Release("t", ComposedEvent.of(
        new GaussianEvent(teacher.countSigma()), DpSgd.event(teacher.dpSgd().noiseMultiplier(),
            teacher.dpSgd().samplingRate(), teacher.dpSgd().steps())))), 1e-5);
    // charged: the calibration search's certified PLD bracket at the final σ (a coarser grid),
    // within 1e-4 relative of every accountant's answer at the default grid, never above the budget
    assertThat(one.total().delta()).isEqualTo(direct.total().delta());
    assertThat(one.total().epsilon()).isCloseTo(direct.total().epsilon(),
        org.assertj.core.api.Assertions.withinPercentage(0.01)).isLessThanOrEqualTo(1);
    // σ is within 0.2% of the smallest one that meets the budget
    PartitionTrainer.Softmax less = PartitionTrainer.Softmax.dp(LabelPrivacy.Training.DEFAULT
        .dpSgd(teacher.dpSgd().noiseMultiplier() * 0.998), 1, 1e-5);
    assertThat(RunGuarantee.of(List.of(new Release("t", LabelPrivacy.teacherEvent(less))), 1e-5)
        .total().epsilon()).isGreaterThan(1);
  }

  @Test
  void darrmRunStaysWithinTheBudgetAndIsChargedTheLeastBound() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 2; trial++) {
      double e = 0.5 + 4 * random.nextDouble();
      double d = Math.pow(10, -4 - 3 * random.nextDouble());
      int q = 1 + random.nextInt(100);
      LabelPrivacy p = LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(e, d),
          Aggregator.DARRM_SUB, 11, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), q);
      assertThat(p.bounds()).hasSize(2);
      for (LabelPrivacy.Bound b : p.bounds()) {
        assertThat(b.total().epsilon()).isLessThanOrEqualTo(e);
        assertThat(b.total().delta()).isLessThanOrEqualTo(d);
        assertThat(p.total().epsilon()).isLessThanOrEqualTo(b.total().epsilon());
      }
      assertThat(p.setting().allowance()).isEqualTo(3);
      assertThat(p.run().analysis()).isEqualTo("teachers");
    }
  }

  @Test
  void gnmaxRunStaysWithinTheBudget() {
    for (int q : List.of(1, 100, 1_000_000)) {
      LabelPrivacy p = LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(2, 1e-5),
          Aggregator.GNMAX, 11, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), q);
      assertThat(p.total().epsilon()).isLessThanOrEqualTo(2);
      assertThat(p.run().analysis()).isEqualTo("per-label composition");
      assertThat(p.gnmax().sigma()).isGreaterThan(0);
    }
  }

  @Test
  void aMillionDarrmLabelsOnASmallBudgetWouldOverspend() {
    // each teacher would get epsilon ~ 5e-4, below what DP-SGD's accountant can certify
    assertThatThrownBy(() -> LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(8, 1e-5),
        Aggregator.DARRM_OPT, 11, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT),
        1_000_000))
        .isInstanceOf(BudgetExceededException.class).hasMessageContaining("cannot reach");
  }

  @Test
  void darrmNeedsOddTeachersAndMInRange() {
    assertThatThrownBy(() -> LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(1, 1e-5),
        Aggregator.DARRM_OPT, 10, OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), 10))
        .hasMessageContaining("teachers");
    assertThatThrownBy(() -> LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(1, 1e-5),
        Aggregator.DARRM_OPT, 11, OptionalDouble.of(12), LabelPrivacy.Training.DEFAULT), 10))
        .hasMessageContaining("m");
  }
}
