package dev.tradeoff.ensemble.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DarrmAggregationTest {

  @Test
  void outputsOneWithProbabilityGammaTimesMajorityPlusHalfTheRest() {
    NoiseFunction gamma = NoiseFunction.subsampling(5, 3);
    SplittableRandom rnd = new SplittableRandom(42);
    int[][] cases = {{1, 1, 1, 0, 0}, {0, 0, 1, 0, 0}, {1, 1, 1, 1, 1}};
    for (int[] votes : cases) {
      int l = java.util.Arrays.stream(votes).sum();
      double expected = (2 * l > 5 ? gamma.at(l) : 0) + 0.5 * (1 - gamma.at(l));
      int n = 40_000;
      int ones = 0;
      for (int i = 0; i < n; i++) {
        ones += Darrm.aggregate(votes, gamma, rnd);
      }
      double se = Math.sqrt(expected * (1 - expected) / n) + 1e-9;
      assertThat(Math.abs(ones / (double) n - expected)).isLessThan(5 * se);
    }
  }

  @Test
  void batchRejectsAGammaThatFailsTheVerifierAndComposesTheQueries() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    assertThatThrownBy(() -> new BatchAggregator(s, NoiseFunction.constant(11, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("privacy verifier");
    BatchAggregator b = new BatchAggregator(s, NoiseFunction.subsampling(11, 3));
    int[][] votes = new int[20][11];
    for (int q = 0; q < 20; q++) {
      votes[q][q % 11] = 1;
    }
    BatchAggregator.Batch batch = b.aggregate(votes, 1e-4, new SplittableRandom(1));
    assertThat(batch.labels()).hasSize(20).containsAnyOf(0, 1);
    assertThat(batch.basicTotal().epsilon()).isCloseTo(20 * 0.3, org.assertj.core.api.Assertions
        .within(1e-9));
    assertThat(batch.generalTotal().epsilon())
        .isLessThanOrEqualTo(batch.basicTotal().epsilon() * (1 + 1e-9));
  }

  @Test
  void rejectsNonBinaryVotesAndWrongLength() {
    NoiseFunction g = NoiseFunction.constant(3, 0.5);
    assertThatThrownBy(() -> Darrm.aggregate(new int[] {0, 2, 1}, g, new SplittableRandom(1)))
        .hasMessageContaining("votes[1] must be 0 or 1");
    assertThatThrownBy(() -> Darrm.aggregate(new int[] {0, 1}, g, new SplittableRandom(1)))
        .hasMessageContaining("K = 3");
  }
}
