package dev.tradeoff.amplification.bernoulli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BinaryRenyiTest {

  private static double direct(double alpha, double p) {
    return Math.log(Math.pow(p, alpha) * Math.pow(1 - p, 1 - alpha)
            + Math.pow(1 - p, alpha) * Math.pow(p, 1 - alpha))
        / (alpha - 1);
  }

  @Test
  void matchesDefinition2WhereThePlainFormulaIsAccurate() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 500; trial++) {
      double alpha = 1.01 + random.nextDouble() * 30;
      double p = 0.01 + random.nextDouble() * 0.98;
      assertThat(BinaryRenyi.r(alpha, p))
          .as("alpha=%s p=%s", alpha, p)
          .isCloseTo(direct(alpha, p), within(1e-10 * Math.max(1, direct(alpha, p))));
    }
  }

  @Test
  void isSymmetricZeroAtOneHalfAndInfiniteAtTheEnds() {
    assertThat(BinaryRenyi.r(5, 0.5)).isZero();
    assertThat(BinaryRenyi.r(5, 0.2)).isCloseTo(BinaryRenyi.r(5, 0.8), within(1e-14));
    assertThat(BinaryRenyi.r(5, 0)).isInfinite();
    assertThat(BinaryRenyi.r(5, 1)).isInfinite();
  }

  @Test
  void inverseRoundTripsAndKeepsRenyiWithinEpsilon() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 300; trial++) {
      double alpha = 1.5 + random.nextDouble() * 100;
      double epsilon = Math.exp(-8 + random.nextDouble() * 14);
      double logP = BinaryRenyi.logPForEpsilon(alpha, epsilon);
      assertThat(logP).isLessThanOrEqualTo(-Math.log(2));
      double r = BinaryRenyi.rFromLog(alpha, logP);
      assertThat(r).isLessThanOrEqualTo(epsilon);
      assertThat(r).isCloseTo(epsilon, within(1e-9 * epsilon));
    }
  }

  @Test
  void inverseStaysInLogSpaceFarBeyondDoubleOverflow() {
    // (α − 1)ε = 49 000: p ≈ e^{−1000} underflows, log p does not; r_α(p) ≈ −log p for tiny p.
    double logP = BinaryRenyi.logPForEpsilon(50, 1000);
    assertThat(logP).isCloseTo(-1000, within(1.0));
    assertThat(BinaryRenyi.rFromLog(50, logP)).isCloseTo(1000, within(1e-9));
    assertThat(BinaryRenyi.pForEpsilon(50, 1000)).isZero();
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> BinaryRenyi.r(1, 0.3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("alpha must be > 1 and finite, but was 1.0");
    assertThatThrownBy(() -> BinaryRenyi.r(2, 1.5))
        .hasMessage("p must be in [0, 1], but was 1.5");
    assertThatThrownBy(() -> BinaryRenyi.logPForEpsilon(2, 0))
        .hasMessage("epsilon must be > 0 and finite, but was 0.0");
  }
}
