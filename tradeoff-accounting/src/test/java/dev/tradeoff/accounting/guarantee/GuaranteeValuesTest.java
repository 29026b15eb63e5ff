package dev.tradeoff.accounting.guarantee;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GuaranteeValuesTest {

  @Test
  void constructorsRejectOutOfRangeParametersWithNamedMessages() {
    assertThatThrownBy(() -> new PureDp(-1)).hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new PureDp(Double.NaN)).hasMessageContaining("epsilon");
    assertThatThrownBy(() -> new ApproxDp(1, 1)).hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> new ApproxDp(1, -0.1)).hasMessageContaining("delta");
    assertThatThrownBy(() -> new ApproxDp(Double.POSITIVE_INFINITY, 0)).hasMessageContaining("epsilon");
    assertThatThrownBy(() -> new ZeroConcentratedDp(-0.5)).hasMessageContaining("rho");
    assertThatThrownBy(() -> new GaussianDp(Double.NaN)).hasMessageContaining("mu");
    assertThatThrownBy(() -> RenyiDp.ofOrder(1.0, 1)).hasMessage("orders[0] must be > 1 and finite, but was 1.0");
    assertThatThrownBy(() -> RenyiDp.ofOrder(2, -1)).hasMessageContaining("epsilons[0]");
    assertThatThrownBy(() -> RenyiDp.of(new double[] {3, 2}, new double[] {1, 1}))
        .hasMessageContaining("strictly increasing");
  }

  @Test
  void pureDpIsApproxDpWithZeroDelta() {
    assertThat(new PureDp(0.5).toApproxDp()).isEqualTo(new ApproxDp(0.5, 0));
    assertThat(new ApproxDp(0.5, 0).isPure()).isTrue();
  }

  @Test
  void renyiCompositionAddsOnCommonOrdersOnly() {
    RenyiDp a = RenyiDp.of(new double[] {2, 4, 8}, new double[] {0.1, 0.2, 0.4});
    RenyiDp b = RenyiDp.of(new double[] {4, 8, 16}, new double[] {1, 2, 3});
    RenyiDp c = a.compose(b);
    assertThat(c.orders()).containsExactly(4, 8);
    assertThat(c.epsilons()).containsExactly(1.2, 2.4);
    assertThatThrownBy(() -> a.compose(RenyiDp.ofOrder(3, 1))).hasMessageContaining("no order in common");
  }

  @Test
  void renyiEpsilonBetweenGridOrdersRoundsToTheNextLargerOrder() {
    RenyiDp a = RenyiDp.of(new double[] {2, 4}, new double[] {0.1, 0.2});
    assertThat(a.epsilonAt(3)).isEqualTo(0.2);
    assertThat(a.epsilonAt(1.5)).isEqualTo(0.1);
    assertThat(a.epsilonAt(4)).isEqualTo(0.2);
    assertThat(a.epsilonAt(5)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void selfCompositionEqualsRepeatedComposition() {
    SplittableRandom random = new SplittableRandom(11);
    double[] orders = RenyiDp.defaultOrders();
    for (int trial = 0; trial < 100; trial++) {
      double scale = random.nextDouble(0.01, 3);
      RenyiDp g = RenyiDp.ofCurve(orders, alpha -> scale * alpha);
      int k = random.nextInt(1, 20);
      RenyiDp repeated = g;
      for (int i = 1; i < k; i++) {
        repeated = repeated.compose(g);
      }
      RenyiDp times = g.times(k);
      for (int i = 0; i < orders.length; i++) {
        assertThat(repeated.epsilon(i)).isCloseTo(times.epsilon(i), org.assertj.core.api.Assertions.within(1e-12 * times.epsilon(i)));
      }
    }
  }

  @Test
  void defaultOrdersAreStrictlyIncreasingAndAboveOne() {
    double[] orders = RenyiDp.defaultOrders();
    assertThat(orders[0]).isGreaterThan(1);
    for (int i = 1; i < orders.length; i++) {
      assertThat(orders[i]).isGreaterThan(orders[i - 1]);
    }
    assertThat(orders[orders.length - 1]).isGreaterThanOrEqualTo(1024);
  }

  @Test
  void profileInversionRoundsEpsilonUp() {
    PrivacyProfile laplaceLike = eps -> Math.max(0, 1 - Math.exp(eps - 2)) * 0.5;
    double eps = laplaceLike.epsilon(1e-3);
    assertThat(laplaceLike.delta(eps)).isLessThanOrEqualTo(1e-3);
    assertThat(laplaceLike.delta(eps - 1e-9)).isGreaterThan(1e-3);
    assertThat(laplaceLike.epsilon(0.9)).isZero();
    assertThat(laplaceLike.atDelta(1e-3).epsilon()).isEqualTo(eps);
  }
}
