package dev.tradeoff.accounting.numerics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogMathTest {

  @Test
  void logAddAndSubtractAreInversesOverManySeededDraws() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 10_000; i++) {
      double a = random.nextDouble(-800, 800);
      double b = a - random.nextDouble(0, 50);
      double sum = LogMath.logAddExp(a, b);
      assertThat(sum).isGreaterThanOrEqualTo(a);
      assertThat(LogMath.logSubExp(sum, b)).isCloseTo(a, within(1e-9 * Math.max(1, Math.abs(a))));
    }
  }

  @Test
  void log1mExpIsAccurateNearZeroAndFarAway() {
    assertThat(LogMath.log1mExp(-1e-20)).isCloseTo(Math.log(1e-20), within(1e-12));
    assertThat(LogMath.log1mExp(-800)).isEqualTo(-0.0);
    assertThat(LogMath.log1mExp(-1)).isCloseTo(Math.log(1 - Math.exp(-1)), within(1e-15));
    assertThat(LogMath.log1mExp(0)).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void logSumExpHandlesHugeAndEmptyInputs() {
    assertThat(LogMath.logSumExp(new double[] {1000, 1000})).isCloseTo(1000 + Math.log(2), within(1e-12));
    assertThat(LogMath.logSumExp(new double[0])).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(LogMath.logSumExp(new double[] {Double.NEGATIVE_INFINITY, -3}))
        .isEqualTo(-3);
  }

  @Test
  void binomialPmfMatchesExactRationalArithmetic() {
    int n = 60;
    double p = 0.3;
    BigDecimal bp = new BigDecimal("0.3");
    BigDecimal bq = BigDecimal.ONE.subtract(bp);
    BigDecimal choose = BigDecimal.ONE;
    for (int k = 0; k <= n; k++) {
      if (k > 0) {
        choose = choose.multiply(BigDecimal.valueOf(n - k + 1)).divide(BigDecimal.valueOf(k), MathContext.DECIMAL128);
      }
      double exact = choose.multiply(bp.pow(k)).multiply(bq.pow(n - k)).doubleValue();
      assertThat(Math.exp(LogMath.logBinomialPmf(n, k, p))).isCloseTo(exact, within(1e-12 * exact + 1e-300));
    }
    assertThat(LogMath.logBinomialPmf(n, -1, p)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(LogMath.logBinomialPmf(1_000_000, 500_000, 0.5)).isFinite();
  }
}
