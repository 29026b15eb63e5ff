package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.numerics.LogMath;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TensorProductTest {

  private static final int LARGE = 100_000;

  /**
   * Optimal composition of k ε-DP mechanisms (Kairouz, Oh and Viswanath 2015, Theorem 3.3 with
   * δ = 0): δ(ε′) = (1 + e^ε)^{−k} Σ_l C(k, l) max(0, e^{(k−l)ε} − e^{ε′} e^{lε}), in log space.
   */
  private static double kairouzDelta(double eps, int k, double epsPrime) {
    double logSum = Double.NEGATIVE_INFINITY;
    for (int l = 0; l <= k; l++) {
      double a = (k - l) * eps;
      double b = epsPrime + l * eps;
      if (a > b) {
        logSum = LogMath.logAddExp(logSum, LogMath.logBinomial(k, l) + LogMath.logSubExp(a, b));
      }
    }
    return Math.exp(logSum - k * LogMath.logAddExp(0, eps));
  }

  private static void assertSameCurve(PiecewiseLinearTradeoff a, PiecewiseLinearTradeoff b,
      double tolerance) {
    assertThat(a.maxExcessOver(b)).isLessThanOrEqualTo(tolerance);
    assertThat(b.maxExcessOver(a)).isLessThanOrEqualTo(tolerance);
  }

  @Test
  void selfCompositionOfPureDpIsKairouzOptimalComposition() {
    for (double eps : new double[] {0.1, 0.5, 1.0}) {
      for (int k : new int[] {1, 2, 5, 10, 30}) {
        PiecewiseLinearTradeoff f = new ApproxDpTradeoff(eps, 0).toPiecewiseLinear();
        TradeoffBound composed = TensorProduct.selfCompose(f, k, LARGE);
        assertThat(composed.gap()).isEqualTo(0);
        // k + 1 distinct likelihood ratios e^{(k - 2l) eps}, so k + 1 segments; sums of rounded
        // log-ratios split some ties by an ulp, and vertices a hair below the chord are kept
        // (removing them would raise the curve), so a few more may remain.
        assertThat(composed.lower().segmentCount()).isBetween(k + 1, 4 * (k + 1));
        TradeoffProfile profile = new TradeoffProfile(composed.lower());
        for (int i = 0; i <= 4 * k; i++) {
          double epsPrime = i * eps / 4;
          double expected = kairouzDelta(eps, k, epsPrime);
          double actual = profile.delta(epsPrime);
          assertThat(Math.abs(actual - expected))
              .as("eps=%s k=%d eps'=%s", eps, k, epsPrime)
              .isLessThanOrEqualTo(1e-12 * expected + 1e-13);
        }
      }
    }
  }

  @Test
  void isCommutativeAndAssociativeAndHasTheIdentityAsUnit() {
    SplittableRandom rng = new SplittableRandom(43);
    for (int trial = 0; trial < 200; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoff g = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoff h = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoff fg = TensorProduct.compose(f, g, LARGE).lower();
      PiecewiseLinearTradeoff gf = TensorProduct.compose(g, f, LARGE).lower();
      assertSameCurve(fg, gf, 1e-14);
      PiecewiseLinearTradeoff left = TensorProduct.compose(fg, h, LARGE).lower();
      PiecewiseLinearTradeoff right =
          TensorProduct.compose(f, TensorProduct.compose(g, h, LARGE).lower(), LARGE).lower();
      assertSameCurve(left, right, 1e-14);
      assertSameCurve(TensorProduct.compose(f, PiecewiseLinearTradeoff.identity(), LARGE).lower(),
          f, 1e-15);
      PiecewiseLinearTradeoffTest.assertValid(fg);
      PiecewiseLinearTradeoffTest.assertValid(left);
      // Composition only loses privacy: f ⊗ g <= min(f, g).
      assertThat(fg.maxExcessOver(f)).isLessThanOrEqualTo(1e-15);
      assertThat(fg.maxExcessOver(g)).isLessThanOrEqualTo(1e-15);
    }
  }

  @Test
  void compositionOfTheInversesIsTheInverseOfTheComposition() {
    SplittableRandom rng = new SplittableRandom(47);
    for (int trial = 0; trial < 200; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoff g = PiecewiseLinearTradeoffTest.randomCurve(rng);
      assertSameCurve(TensorProduct.compose(f.inverse(), g.inverse(), LARGE).lower(),
          TensorProduct.compose(f, g, LARGE).lower().inverse(), 1e-14);
    }
  }

  @Test
  void composedApproxDpIsAtLeastBasicComposition() {
    // f_{e1,d1} ⊗ f_{e2,d2} >= f_{e1+e2, d1+d2} (Dong, Roth and Su 2022, basic composition).
    SplittableRandom rng = new SplittableRandom(53);
    for (int trial = 0; trial < 200; trial++) {
      double e1 = 2 * rng.nextDouble();
      double e2 = 2 * rng.nextDouble();
      double d1 = 0.1 * rng.nextDouble();
      double d2 = 0.1 * rng.nextDouble();
      PiecewiseLinearTradeoff composed = TensorProduct.compose(
          new ApproxDpTradeoff(e1, d1).toPiecewiseLinear(),
          new ApproxDpTradeoff(e2, d2).toPiecewiseLinear(), LARGE).lower();
      PiecewiseLinearTradeoff basic = new ApproxDpTradeoff(e1 + e2, d1 + d2).toPiecewiseLinear();
      assertThat(basic.maxExcessOver(composed)).isLessThanOrEqualTo(1e-15);
    }
  }

  @Test
  void reductionStaysBelowTheExactCompositionWithinItsGap() {
    SplittableRandom rng = new SplittableRandom(59);
    for (int trial = 0; trial < 50; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng);
      int k = 2 + rng.nextInt(5);
      TradeoffBound exact = TensorProduct.selfCompose(f, k, LARGE);
      TradeoffBound reduced = TensorProduct.selfCompose(f, k, 8);
      assertThat(exact.gap()).isEqualTo(0);
      assertThat(reduced.lower().segmentCount()).isLessThanOrEqualTo(8);
      PiecewiseLinearTradeoffTest.assertValid(reduced.lower());
      double excess = reduced.lower().maxExcessOver(exact.lower());
      assertThat(excess).isLessThanOrEqualTo(1e-14);
      double shortfall = exact.lower().maxExcessOver(reduced.lower());
      assertThat(shortfall).isLessThanOrEqualTo(reduced.gap() + 1e-14);
      assertThat(reduced.lower().vertexBeta(0))
          .isCloseTo(exact.lower().vertexBeta(0), within(1e-14));
    }
  }

  @Test
  void numericGaussianCompositionMatchesTheClosedForm() {
    GaussianTradeoff g1 = new GaussianTradeoff(1);
    GaussianTradeoff g2 = new GaussianTradeoff(2);
    TradeoffBound a = g1.lowerPiecewiseLinear(300);
    TradeoffBound b = g2.lowerPiecewiseLinear(300);
    TradeoffBound composed = TensorProduct.compose(a, b, 400);
    GaussianTradeoff exact = g1.compose(g2);
    assertThat(composed.gap()).isLessThan(5e-3);
    for (int i = 0; i <= 10000; i++) {
      double alpha = i / 10000.0;
      double lower = composed.lower().beta(alpha);
      assertThat(lower).isLessThanOrEqualTo(exact.beta(alpha) + 1e-14);
      assertThat(lower).isGreaterThanOrEqualTo(exact.beta(alpha) - composed.gap() - 1e-14);
    }
  }

  @Test
  void defaultBoundKeepsAtMostTheDefaultNumberOfSegments() {
    PiecewiseLinearTradeoff f = new GaussianTradeoff(1).lowerPiecewiseLinear(300).lower();
    TradeoffBound composed = TensorProduct.compose(f, f);
    assertThat(composed.lower().segmentCount())
        .isLessThanOrEqualTo(TensorProduct.DEFAULT_MAX_SEGMENTS);
    assertThat(composed.gap()).isGreaterThan(0).isLessThan(1e-3);
  }

  @Test
  void rejectsBadArguments() {
    PiecewiseLinearTradeoff f = PiecewiseLinearTradeoff.identity();
    assertThatThrownBy(() -> TensorProduct.selfCompose(f, 0, 10))
        .hasMessage("k must be >= 1, but was 0");
    assertThatThrownBy(() -> TensorProduct.compose(f, f, 2))
        .hasMessage("maxSegments must be >= 3, but was 2");
    assertThatThrownBy(() -> TensorProduct.compose(f, null, 10))
        .hasMessage("g must not be null");
  }
}
