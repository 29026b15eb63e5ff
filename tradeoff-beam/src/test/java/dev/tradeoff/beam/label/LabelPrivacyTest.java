package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LabelPrivacyTest {

  @Test
  void darrmRunStaysWithinTheBudgetAndBeatsBasicComposition() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 2; trial++) {
      double e = 0.5 + 4 * random.nextDouble();
      double d = Math.pow(10, -4 - 3 * random.nextDouble());
      int q = 1 + random.nextInt(100);
      LabelPrivacy p = LabelPrivacy.derive(new ApproxDp(e, d), q, 11, Aggregator.DARRM_SUB,
          Double.NaN, LabelPrivacy.Training.DEFAULT);
      assertThat(p.run().total().epsilon()).isLessThanOrEqualTo(e);
      assertThat(p.run().total().delta()).isLessThanOrEqualTo(d);
      assertThat(p.perLabel().delta() * q).isLessThanOrEqualTo(d / 2);
      // at least as good as splitting E evenly (basic composition)
      assertThat(p.perLabel().epsilon()).isGreaterThanOrEqualTo(e / q * (1 - 1e-9));
      assertThat(p.setting().allowance()).isEqualTo(3);
      assertThat(p.setting().epsilon() * 3).isLessThanOrEqualTo(p.perLabel().epsilon());
      assertThat(p.dpSgd().guarantee(p.setting().teacherDelta()).epsilon())
          .isLessThanOrEqualTo(p.setting().epsilon() * (1 + 1e-9));
    }
  }

  @Test
  void gnmaxRunStaysWithinTheBudget() {
    for (int q : List.of(1, 100, 1_000_000)) {
      LabelPrivacy p = LabelPrivacy.derive(new ApproxDp(2, 1e-5), q, 11, Aggregator.GNMAX,
          Double.NaN, LabelPrivacy.Training.DEFAULT);
      assertThat(p.run().total().epsilon()).isLessThanOrEqualTo(2);
      assertThat(p.privateTeachers()).isFalse();
      assertThat(p.gnmax().sigma()).isGreaterThan(0);
    }
  }

  @Test
  void aMillionDarrmLabelsOnASmallBudgetWouldOverspend() {
    // each teacher would get epsilon ~ 5e-4, below what DP-SGD's accountant can certify
    assertThatThrownBy(() -> LabelPrivacy.derive(new ApproxDp(8, 1e-5), 1_000_000, 11,
        Aggregator.DARRM_OPT, Double.NaN, LabelPrivacy.Training.DEFAULT))
        .isInstanceOf(BudgetExceededException.class).hasMessageContaining("DP-SGD cannot reach");
  }

  @Test
  void darrmNeedsOddTeachersAndMInRange() {
    assertThatThrownBy(() -> LabelPrivacy.derive(new ApproxDp(1, 1e-5), 10, 10,
        Aggregator.DARRM_OPT, Double.NaN, LabelPrivacy.Training.DEFAULT))
        .hasMessageContaining("teachers");
    assertThatThrownBy(() -> LabelPrivacy.derive(new ApproxDp(1, 1e-5), 10, 11,
        Aggregator.DARRM_OPT, 12, LabelPrivacy.Training.DEFAULT))
        .hasMessageContaining("m");
  }
}
