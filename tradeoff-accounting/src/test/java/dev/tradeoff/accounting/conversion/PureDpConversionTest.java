package dev.tradeoff.accounting.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PureDpConversionTest {

  @Test
  void pureIsApproxWithZeroDelta() {
    assertThat(PureDpConversion.toApproxDp(new PureDp(0.7))).isEqualTo(new ApproxDp(0.7, 0));
  }

  @Test
  void randomizedResponseDivergenceMatchesHighPrecisionReferences() {
    // mpmath, 40 digits, from the definition Σ P^α Q^{1−α}
    double[][] cases = {
      {1, 2, 2, 0.73532566405551922471},
      {0.001, 2, 1.5, 7.4999984375004378121e-7},
      {2, 5, 10, 1.9519274559101854911},
      {5, 3, 1.05, 4.9181018568936986091},
      {0.1, 100, 64, 0.030867305038535823183},
    };
    for (double[] c : cases) {
      assertThat(PureDpConversion.renyiEpsilonOfRandomizedResponse(c[0], (int) c[1], c[2]))
          .as("eps=%s k=%s alpha=%s", c[0], c[1], c[2])
          .isCloseTo(c[3], withinPercentage(1e-10));
    }
  }

  @Test
  void tightConversionIsBelowBunSteinkeAndBelowEpsilon() {
    SplittableRandom rng = new SplittableRandom(11);
    double[] orders = RenyiDp.defaultOrders();
    for (int i = 0; i < 100; i++) {
      PureDp pure = new PureDp(10 * rng.nextDouble() * rng.nextDouble());
      RenyiDp tight = PureDpConversion.toRenyiDp(pure, orders);
      RenyiDp bs = PureDpConversion.toRenyiDpBunSteinke(pure, orders);
      for (int j = 0; j < orders.length; j++) {
        assertThat(tight.epsilon(j))
            .isLessThanOrEqualTo(bs.epsilon(j) * (1 + 1e-12))
            .isLessThanOrEqualTo(pure.epsilon() * (1 + 1e-12));
      }
    }
  }

  @Test
  void tightConversionApproachesEpsilonAtLargeOrders() {
    assertThat(PureDpConversion.renyiEpsilonOfRandomizedResponse(1, 2, 1e6))
        .isCloseTo(1, withinPercentage(1e-3));
  }

  @Test
  void randomizedResponseDivergenceIsIncreasingInOrderAndEpsilon() {
    SplittableRandom rng = new SplittableRandom(12);
    for (int i = 0; i < 1000; i++) {
      double eps = 8 * rng.nextDouble();
      int k = 2 + rng.nextInt(50);
      double a = 1.01 + 100 * rng.nextDouble();
      double d = PureDpConversion.renyiEpsilonOfRandomizedResponse(eps, k, a);
      assertThat(PureDpConversion.renyiEpsilonOfRandomizedResponse(eps, k, a * 1.1))
          .isGreaterThanOrEqualTo(d);
      assertThat(PureDpConversion.renyiEpsilonOfRandomizedResponse(eps * 1.1, k, a))
          .isGreaterThanOrEqualTo(d);
    }
  }

  @Test
  void rejectsBadInputs() {
    assertThatThrownBy(() -> PureDpConversion.renyiEpsilonOfRandomizedResponse(-1, 2, 2))
        .hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> PureDpConversion.renyiEpsilonOfRandomizedResponse(1, 1, 2))
        .hasMessageContaining("categories");
    assertThatThrownBy(() -> PureDpConversion.renyiEpsilonOfRandomizedResponse(1, 2, 1))
        .hasMessageContaining("alpha");
    assertThatThrownBy(() -> PureDpConversion.toRenyiDp(null, new double[] {2}))
        .hasMessageContaining("pure");
  }
}
