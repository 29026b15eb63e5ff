package dev.tradeoff.mechanisms.response;

import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.ALPHA;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.binomialZ;
import static dev.tradeoff.mechanisms.testing.GoodnessOfFit.chiSquarePValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RandomizedResponseTest {

  @Test
  void binaryResponseKeepsTheTruthWithProbabilityEToEpsOverOnePlusEToEps() {
    RandomizedResponse rr = RandomizedResponse.binary(Math.log(3)); // truth w.p. 3/4
    RandomGenerator random = Randomness.seeded(60);
    int n = 200_000;
    long kept = 0;
    for (int i = 0; i < n; i++) {
      kept += rr.release(true, random) ? 1 : 0;
    }
    assertThat(binomialZ(kept, n, 0.75)).isLessThan(4.5);
    assertThat(rr.truthProbability()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-15));
  }

  @Test
  void kAryResponseFitsItsExactLaw() {
    double eps = 1.3;
    int k = 5;
    RandomizedResponse rr = RandomizedResponse.kAry(eps, k);
    RandomGenerator random = Randomness.seeded(61);
    long[] counts = new long[k];
    for (int i = 0; i < 200_000; i++) {
      counts[rr.release(2, random)]++;
    }
    double denominator = Math.exp(eps) + k - 1;
    double[] p = new double[k];
    for (int j = 0; j < k; j++) {
      p[j] = (j == 2 ? Math.exp(eps) : 1) / denominator;
    }
    assertThat(chiSquarePValue(counts, p)).isGreaterThan(ALPHA);
  }

  @Test
  void zeroEpsilonIsUniform() {
    RandomizedResponse rr = RandomizedResponse.kAry(0, 3);
    RandomGenerator random = Randomness.seeded(62);
    long[] counts = new long[3];
    for (int i = 0; i < 60_000; i++) {
      counts[rr.release(0, random)]++;
    }
    assertThat(chiSquarePValue(counts, new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0})).isGreaterThan(ALPHA);
  }

  @Test
  void statesPureDpAndTheRandomizedResponseEvent() {
    RandomizedResponse rr = RandomizedResponse.kAry(0.7, 4);
    assertThat(rr.guarantee()).isEqualTo(new PureDp(0.7));
    assertThat(rr.event()).isEqualTo(new RandomizedResponseEvent(0.7, 4));
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> RandomizedResponse.kAry(1, 1))
        .hasMessage("categories must be in [2, 2147483647], but was 1");
    assertThatThrownBy(() -> RandomizedResponse.binary(Double.NaN))
        .hasMessage("epsilon must be >= 0 and finite, but was NaN");
    assertThatThrownBy(() -> RandomizedResponse.kAry(1, 3).release(3, Randomness.seeded(1)))
        .hasMessage("value must be in [0, 2], but was 3");
    assertThatThrownBy(() -> RandomizedResponse.kAry(1, 3).release(true, Randomness.seeded(1)))
        .hasMessage("categories must be 2 for a boolean input, but was 3");
  }
}
