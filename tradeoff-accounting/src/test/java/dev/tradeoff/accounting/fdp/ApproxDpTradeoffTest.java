package dev.tradeoff.accounting.fdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ApproxDpTradeoffTest {

  @Test
  void evaluatesTheThreePieceFormula() {
    ApproxDpTradeoff f = new ApproxDpTradeoff(Math.log(3), 0.1);
    // 1 - delta - 3 alpha, (1 - delta - alpha) / 3, 0
    assertThat(f.beta(0)).isCloseTo(0.9, within(1e-15));
    assertThat(f.beta(0.1)).isCloseTo(0.6, within(1e-15));
    assertThat(f.beta(0.5)).isCloseTo(0.4 / 3, within(1e-15));
    assertThat(f.beta(0.95)).isEqualTo(0);
    assertThat(f.toApproxDp()).isEqualTo(new ApproxDp(Math.log(3), 0.1));
    assertThat(ApproxDpTradeoff.of(new ApproxDp(1, 0.01))).isEqualTo(new ApproxDpTradeoff(1, 0.01));
  }

  @Test
  void piecewiseLinearFormIsExactAndSymmetric() {
    SplittableRandom rng = new SplittableRandom(23);
    for (int trial = 0; trial < 500; trial++) {
      double eps = rng.nextDouble() < 0.1 ? 0 : 5 * rng.nextDouble();
      double delta = rng.nextDouble() < 0.3 ? 0 : Math.pow(10, -8 * rng.nextDouble());
      if (delta >= 1) {
        continue;
      }
      ApproxDpTradeoff f = new ApproxDpTradeoff(eps, delta);
      PiecewiseLinearTradeoff pl = f.toPiecewiseLinear();
      PiecewiseLinearTradeoffTest.assertValid(pl);
      assertThat(pl.isSymmetric(1e-15)).isTrue();
      for (int i = 0; i <= 100; i++) {
        double a = rng.nextDouble();
        assertThat(pl.beta(a)).isCloseTo(f.beta(a), within(1e-15));
      }
    }
  }

  @Test
  void profileIsTheConjugateFormula() {
    double eps = 1.2;
    double delta = 1e-4;
    ApproxDpTradeoff f = new ApproxDpTradeoff(eps, delta);
    for (double e : new double[] {0, 0.3, 0.9, 1.2, 1.5, 4}) {
      double expected = e >= eps ? delta
          : delta + (1 - delta) * (Math.exp(eps) - Math.exp(e)) / (1 + Math.exp(eps));
      if (e > eps) {
        expected = delta;
      }
      assertThat(f.profile().delta(e)).isCloseTo(expected, within(1e-15));
    }
  }

  @Test
  void rejectsInvalidParameters() {
    assertThatThrownBy(() -> new ApproxDpTradeoff(-1, 0))
        .hasMessage("epsilon must be >= 0 and finite, but was -1.0");
    assertThatThrownBy(() -> new ApproxDpTradeoff(1, 1))
        .hasMessage("delta must be in [0, 1), but was 1.0");
    assertThatThrownBy(() -> new ApproxDpTradeoff(Double.NaN, 0))
        .hasMessage("epsilon must be >= 0 and finite, but was NaN");
    assertThatThrownBy(() -> new ApproxDpTradeoff(1, 0).beta(2))
        .hasMessage("alpha must be in [0, 1], but was 2.0");
  }
}
