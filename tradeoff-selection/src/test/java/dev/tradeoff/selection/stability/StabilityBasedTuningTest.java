package dev.tradeoff.selection.stability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StabilityBasedTuningTest {

  @Test
  void algorithmTwoTrainsEachCandidateOnceAtAlphaOneAndPaysAlphaOnePlusAlphaTwo() {
    List<double[]> calls = new ArrayList<>();
    PrivateTrainer<Integer> trainer = (candidate, part, parts, alpha, random) -> {
      calls.add(new double[] {candidate, part, parts, alpha});
      return candidate;
    };
    StabilityConstants c = new StabilityConstants(4, 2, 1e-6);
    Tuned<Integer> t = StabilityBasedTuning.run(trainer, 3, m -> m == 1 ? 10.0 : 0.0, c, 1000,
        1000, 0.3, 0.7, Randomness.seeded(1));
    assertThat(calls).hasSize(3).allSatisfy(call -> {
      assertThat(call[1]).isZero();
      assertThat(call[2]).isEqualTo(1);
      assertThat(call[3]).isEqualTo(0.3);
    });
    // β = 0.004, rate 0.7/0.008 = 87.5: a score gap of 10 is never overturned
    assertThat(t.index()).isEqualTo(1);
    assertThat(t.model()).isEqualTo(1);
    assertThat(t.guarantee()).isEqualTo(new ApproxDp(1.0, 1e-6));
  }

  @Test
  void guaranteeEpsilonIsTheSumRoundedUp() {
    StabilityConstants c = new StabilityConstants(1, 1, 1e-5);
    double e = StabilityBasedTuning.guarantee(0.1, 0.2, c).epsilon();
    assertThat(new java.math.BigDecimal(e))
        .isGreaterThanOrEqualTo(new java.math.BigDecimal(0.1).add(new java.math.BigDecimal(0.2)));
    assertThat(e).isLessThanOrEqualTo(Math.nextUp(0.1 + 0.2));
  }
}
