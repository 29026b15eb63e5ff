package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.ExactReferences;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TradeoffProfileTest {

  private static final MathContext DIGITS = new MathContext(60);

  /** max(0, max_i (1 − β_i) − e^ε α_i) over the curve's vertices, at 60 digits. */
  private static BigDecimal exactDelta(PiecewiseLinearTradeoff curve, double epsilon) {
    BigDecimal slope = ExactReferences.exp(new BigDecimal(epsilon), DIGITS);
    BigDecimal best = BigDecimal.ZERO;
    for (int i = 0; i < curve.vertexCount(); i++) {
      BigDecimal term = BigDecimal.ONE.subtract(new BigDecimal(curve.vertexBeta(i)))
          .subtract(slope.multiply(new BigDecimal(curve.vertexAlpha(i)), DIGITS), DIGITS);
      best = best.max(term);
    }
    return best;
  }

  @Test
  void deltaIsNeverBelowTheExactConjugateAndExceedsItByAFewUlps() {
    SplittableRandom rng = new SplittableRandom(916);
    for (int trial = 0; trial < 300; trial++) {
      PiecewiseLinearTradeoff curve = PiecewiseLinearTradeoffTest.randomCurve(rng).symmetrized();
      TradeoffProfile profile = new TradeoffProfile(curve);
      for (double epsilon : new double[] {0, 1e-9 * rng.nextDouble(), 3 * rng.nextDouble()}) {
        double delta = profile.delta(epsilon);
        BigDecimal exact = exactDelta(curve, epsilon);

        assertThat(new BigDecimal(delta)).as("trial %d eps %s", trial, epsilon)
            .isGreaterThanOrEqualTo(exact);
        assertThat(new BigDecimal(delta).subtract(exact).doubleValue())
            .as("trial %d eps %s", trial, epsilon)
            .isLessThanOrEqualTo(8 * Math.ulp(1.0));
      }
    }
  }

  @Test
  void anExactZeroStaysZero() {
    // (ε, δ) = (1, 0): the profile is 0 from ε = 1 on, and 1 − β = e^ε α holds at no vertex
    // beyond; at ε = 0 the vertex (1, 0) gives exactly 1 − 0 − 1·1 = 0 and must not be raised.
    assertThat(new ApproxDpTradeoff(1, 0).profile().delta(2)).isZero();
    TradeoffProfile identity = new TradeoffProfile(
        PiecewiseLinearTradeoff.lowerConvexEnvelope(new double[] {0, 1}, new double[] {1, 0}));
    assertThat(identity.delta(0)).isZero();
  }
}
