package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.fdp.GaussianTradeoff;
import dev.tradeoff.accounting.fdp.PiecewiseLinearTradeoff;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PowerCurveTest {

  @Test
  void pureDpCurveHasTheApproximateDpProfile() {
    PowerCurve f = PowerCurve.pureDp(1.0);
    // answers allow for a relative 1e-13 of rounding in every vertex (VERTEX_ROUNDING)
    assertThat(f.delta(1.0)).isCloseTo(0, within(1e-12));
    // δ(ε) = (e^1 − e^ε)/(e^1 + 1) for ε < 1 (Dong, Roth and Su 2022, Proposition 2.12).
    for (double eps : new double[] {0, 0.3, 0.7}) {
      double exact = (Math.E - Math.exp(eps)) / (Math.E + 1);
      assertThat(f.delta(eps)).isGreaterThanOrEqualTo(exact).isCloseTo(exact, within(1e-12));
    }
    assertThat(f.epsilon(0)).isCloseTo(1.0, within(1e-12));
    assertThat(f.epsilon(0.1)).isCloseTo(Math.log(Math.E - 0.1 * (Math.E + 1)), within(1e-12));
  }

  @Test
  void epsilonIsNeverBelowTheExactValue() {
    // {ε₀, δ, exact ε(δ) = ln(e^ε₀ − δ(1 + e^ε₀))} of pure ε₀-DP: mpmath at 50 digits.
    String[][] cases = {
      {"1.0", "0", "1.0"},
      {"1.0", "0.1", "0.852905101364321803720173939735"},
      {"0.5", "1e-6", "0.499998393468049815604156222033"},
      {"3.0", "1e-3", "2.9989496615192435040173062806"},
      {"0.1", "1e-9", "0.0999999980951625857009527581056"},
    };
    for (String[] c : cases) {
      double epsilon = PowerCurve.pureDp(Double.parseDouble(c[0])).epsilon(Double.parseDouble(c[1]));
      assertThat(new java.math.BigDecimal(epsilon)).as(c[0] + " " + c[1])
          .isGreaterThanOrEqualTo(new java.math.BigDecimal(c[2]));
      assertThat(epsilon).isCloseTo(Double.parseDouble(c[2]), within(1e-12));
    }
  }

  @Test
  void gaussianMuRecoversMuFromATangentLowerBoundOfGmu() {
    for (double mu : new double[] {0.1, 0.5, 1.0, 3.0}) {
      PiecewiseLinearTradeoff lower = new GaussianTradeoff(mu).lowerPiecewiseLinear(800).lower();
      double[] a = lower.alphas();
      double[] g = lower.betas();
      for (int i = 0; i < g.length; i++) {
        g[i] = 1 - g[i];
      }
      double found = PowerCurve.upperConcaveEnvelope(a, g).gaussianMu();
      // A lower bound of G_μ needs μ' ≥ μ; the tangent envelope is within ~1e-4 of G_μ.
      assertThat(found).isGreaterThanOrEqualTo(mu - 1e-9).isLessThan(mu + 0.02);
    }
  }

  @Test
  void minimumOfTwoCurvesIsBelowBothAndConcave() {
    SplittableRandom random = new SplittableRandom(17L);
    PowerCurve a = PowerCurve.pureDp(0.7);
    double[] alphas = new double[30];
    double[] powers = new double[30];
    for (int i = 0; i < 30; i++) {
      alphas[i] = random.nextDouble();
      powers[i] = Math.min(1, alphas[i] * (1 + 3 * random.nextDouble()));
    }
    PowerCurve b = PowerCurve.upperConcaveEnvelope(alphas, powers);
    PowerCurve m = a.min(b);
    for (int i = 0; i <= 1000; i++) {
      double x = i / 1000.0;
      assertThat(m.power(x)).isCloseTo(Math.min(a.power(x), b.power(x)), within(1e-12));
    }
    double[] ma = m.alphas();
    double[] mg = m.powers();
    for (int i = 1; i + 1 < ma.length; i++) {
      double t = (ma[i] - ma[i - 1]) / (ma[i + 1] - ma[i - 1]);
      assertThat(mg[i]).isGreaterThanOrEqualTo(mg[i - 1] + t * (mg[i + 1] - mg[i - 1]) - 1e-12);
    }
  }

  @Test
  void tradeoffViewIsOneMinusPower() {
    PowerCurve f = PowerCurve.pureDp(0.5);
    PiecewiseLinearTradeoff t = f.tradeoff();
    for (double x : new double[] {0, 0.1, 0.3, 0.9, 1}) {
      assertThat(t.beta(x)).isCloseTo(1 - f.power(x), within(1e-15));
    }
  }
}
