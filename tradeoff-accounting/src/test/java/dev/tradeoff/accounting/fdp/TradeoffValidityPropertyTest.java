package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded property tests: every operation maps valid trade-off functions to valid ones. */
class TradeoffValidityPropertyTest {

  @Test
  void everyOperationPreservesValidity() {
    SplittableRandom rng = new SplittableRandom(73);
    for (int trial = 0; trial < 300; trial++) {
      PiecewiseLinearTradeoff f = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoff g = PiecewiseLinearTradeoffTest.randomCurve(rng);
      PiecewiseLinearTradeoffTest.assertValid(f.inverse());
      PiecewiseLinearTradeoffTest.assertValid(f.symmetrized());
      PiecewiseLinearTradeoffTest.assertValid(TensorProduct.compose(f, g, 5).lower());
      PiecewiseLinearTradeoffTest.assertValid(TensorProduct.selfCompose(f, 3, 6).lower());
      PiecewiseLinearTradeoffTest.assertValid(TensorProduct.reduce(f, 3).lower());
      PiecewiseLinearTradeoffTest.assertValid(
          Tradeoffs.fromProfile(new TradeoffProfile(f), Tradeoffs.epsilonGrid(5, 50)));
      PiecewiseLinearTradeoffTest.assertValid(
          PiecewiseLinearTradeoff.lowerConvexEnvelope(f.betas(), f.alphas()));
    }
  }

  @Test
  void extremeParametersStayValid() {
    for (double eps : new double[] {0, 1e-12, 50, 700, 800}) {
      for (double delta : new double[] {0, 1e-300, 0.5}) {
        ApproxDpTradeoff f = new ApproxDpTradeoff(eps, delta);
        PiecewiseLinearTradeoffTest.assertValid(f.toPiecewiseLinear());
        assertThat(f.beta(0)).isEqualTo(1 - delta);
        assertThat(f.beta(1)).isEqualTo(0);
        assertThat(f.toPiecewiseLinear().maxExcessOver(
            f.toPiecewiseLinear().symmetrized())).isLessThanOrEqualTo(1e-15);
      }
    }
    for (double mu : new double[] {1e-6, 20, 60}) {
      TradeoffBound bound = new GaussianTradeoff(mu).lowerPiecewiseLinear(50);
      PiecewiseLinearTradeoffTest.assertValid(bound.lower());
      assertThat(bound.gap()).isBetween(0.0, 1.0);
    }
  }
}
