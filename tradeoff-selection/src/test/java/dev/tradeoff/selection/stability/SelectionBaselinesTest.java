package dev.tradeoff.selection.stability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class SelectionBaselinesTest {

  /** What a trainer was asked for. */
  record Call(int candidate, int part, int parts, double alpha) {}

  private final List<Call> calls = new ArrayList<>();
  private final PrivateTrainer<Integer> recording = (candidate, part, parts, alpha, random) -> {
    calls.add(new Call(candidate, part, parts, alpha));
    return candidate;
  };

  @Test
  void alphaSplitTrainsEveryCandidateOnAllDataAtAlphaOverK() {
    Tuned<Integer> t = SelectionBaselines.alphaSplit(recording, 4, m -> m == 2 ? 1000.0 : 0.0,
        1, 1.0, true, Randomness.seeded(1));
    assertThat(calls).hasSize(4).allSatisfy(c -> {
      assertThat(c.parts()).isEqualTo(1);
      assertThat(c.part()).isZero();
      assertThat(c.alpha()).isLessThanOrEqualTo(0.25).isGreaterThan(0.2499999);
    });
    assertThat(t.index()).isEqualTo(2); // a 1000-point utility gap at ε = 1: certain
    assertThat(t.model()).isEqualTo(2);
    assertThat(t.guarantee()).isEqualTo(new ApproxDp(1.0, 0));
  }

  @Test
  void dataSplitTrainsCandidateIOnDisjointPartIAtFullAlpha() {
    Tuned<Integer> t = SelectionBaselines.dataSplit(recording, 3, m -> m == 0 ? 1000.0 : 0.0,
        1, 0.5, false, Randomness.seeded(2));
    assertThat(calls).containsExactly(new Call(0, 0, 3, 0.5), new Call(1, 1, 3, 0.5),
        new Call(2, 2, 3, 0.5));
    assertThat(t.index()).isZero();
    // T and V overlap: training and validation compose, 2α (Theorem 5)
    assertThat(t.guarantee()).isEqualTo(new ApproxDp(1.0, 0));
  }

  @Test
  void randomTrainsOnlyTheUniformlyChosenCandidateAtAlpha() {
    RandomGenerator random = Randomness.seeded(3);
    int[] chosen = new int[5];
    for (int r = 0; r < 5000; r++) {
      calls.clear();
      Tuned<Integer> t = SelectionBaselines.random(recording, 5, 0.7, random);
      assertThat(calls).containsExactly(new Call(t.index(), 0, 1, 0.7));
      assertThat(t.guarantee()).isEqualTo(new ApproxDp(0.7, 0));
      chosen[t.index()]++;
    }
    for (int c : chosen) {
      assertThat(c).isBetween(1000 - 150, 1000 + 150); // sd ≈ 28
    }
  }

  @Test
  void exponentialMechanismSelectionFollowsExpAlphaUOverTwoDelta() {
    // utilities 0 and 2Δ·ln 3/α: odds 3 : 1
    double alpha = 1;
    double delta = 0.01;
    double u = 2 * delta * Math.log(3) / alpha;
    RandomGenerator random = Randomness.seeded(4);
    int first = 0;
    int draws = 20_000;
    for (int r = 0; r < draws; r++) {
      calls.clear();
      if (SelectionBaselines.alphaSplit(recording, 2, m -> m == 0 ? u : 0.0, delta, alpha, true,
          random).index() == 0) {
        first++;
      }
    }
    assertThat(first / (double) draws).isBetween(0.75 - 0.015, 0.75 + 0.015); // sd ≈ 0.003
  }

  @Test
  void badInputIsRefused() {
    RandomGenerator random = Randomness.seeded(5);
    assertThatThrownBy(() -> SelectionBaselines.random(recording, 0, 1, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("candidates");
    assertThatThrownBy(() -> SelectionBaselines.alphaSplit(recording, 2, m -> 0.0, 1, 0, true,
        random)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha");
    assertThatThrownBy(() -> SelectionBaselines.dataSplit(recording, 2, m -> 0.0, -1, 1, true,
        random)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sensitivity");
  }
}
