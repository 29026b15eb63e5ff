package dev.tradeoff.accounting.numerics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StandardNormalTest {

  @Test
  void logCdfIsFiniteAndAccurateDeepInTheLowerTail() {
    // Mills-ratio asymptotics: log Φ(x) = -x²/2 - log(-x) - log√(2π) + log(1 - 1/x² + 3/x⁴ - ...).
    double x = -40;
    double asymptotic =
        -x * x / 2 - Math.log(-x) - 0.5 * Math.log(2 * Math.PI)
            + Math.log(1 - 1 / (x * x) + 3 / Math.pow(x, 4) - 15 / Math.pow(x, 6));
    assertThat(StandardNormal.logCdf(x)).isCloseTo(asymptotic, within(1e-9));
    assertThat(StandardNormal.logCdf(-1e4)).isFinite();
  }

  @Test
  void logCdfIsContinuousAcrossBranchSwitches() {
    for (double x : new double[] {-5, 5}) {
      double left = StandardNormal.logCdf(Math.nextDown(x));
      double right = StandardNormal.logCdf(Math.nextUp(x));
      assertThat(right).isCloseTo(left, within(1e-12 * Math.abs(left) + 1e-15));
    }
    assertThat(StandardNormal.logCdf(0)).isCloseTo(Math.log(0.5), within(1e-15));
    assertThat(StandardNormal.logCdf(40)).isCloseTo(-StandardNormal.cdf(-40), within(1e-300));
  }

  @Test
  void inverseCdfResolvesTinyProbabilities() {
    double z = StandardNormal.inverseCdf(1e-300);
    assertThat(z).isCloseTo(-37.0471, within(1e-3));
    assertThat(StandardNormal.cdf(z)).isCloseTo(1e-300, within(1e-310));
    assertThat(StandardNormal.inverseSurvival(1e-300)).isCloseTo(-z, within(1e-9));
  }

  @Test
  void cdfAndSurvivalAreComplementary() {
    for (double x = -8; x <= 8; x += 0.125) {
      assertThat(StandardNormal.cdf(x) + StandardNormal.survival(x)).isCloseTo(1, within(1e-15));
    }
  }
}
