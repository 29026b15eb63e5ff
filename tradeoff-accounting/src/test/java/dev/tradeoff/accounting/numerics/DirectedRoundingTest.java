package dev.tradeoff.accounting.numerics;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DirectedRoundingTest {

  @Test
  void neverRoundsTowardsLessPrivacyLoss() {
    SplittableRandom params = new SplittableRandom(104);
    for (int trial = 0; trial < 1000; trial++) {
      double a = params.nextDouble(0, 10);
      double b = params.nextDouble(1e-3, 10);
      assertThat(new BigDecimal(DirectedRounding.sumUp(a, b)))
          .isGreaterThanOrEqualTo(new BigDecimal(a).add(new BigDecimal(b)));
      assertThat(new BigDecimal(DirectedRounding.productUp(a, b)))
          .isGreaterThanOrEqualTo(new BigDecimal(a).multiply(new BigDecimal(b)));
      assertThat(new BigDecimal(DirectedRounding.quotientDown(a, b)).multiply(new BigDecimal(b)))
          .isLessThanOrEqualTo(new BigDecimal(a));
      assertThat(new BigDecimal(DirectedRounding.quotientUp(a, b)).multiply(new BigDecimal(b)))
          .isGreaterThanOrEqualTo(new BigDecimal(a));
    }
  }
}
