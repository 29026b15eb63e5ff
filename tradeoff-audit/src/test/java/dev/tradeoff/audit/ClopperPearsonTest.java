package dev.tradeoff.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class ClopperPearsonTest {

  @Test
  void matchesTheTextbookIntervalForThreeOfTen() {
    // 95% two-sided exact interval for 3/10 (R: binom.test(3, 10)$conf.int)
    assertThat(ClopperPearson.lower(3, 10, 0.025)).isCloseTo(0.06673951, within(1e-8));
    assertThat(ClopperPearson.upper(3, 10, 0.025)).isCloseTo(0.65245285, within(1e-8));
  }

  @Test
  void zeroAndFullCountsHaveClosedForms() {
    assertThat(ClopperPearson.lower(0, 50, 0.05)).isZero();
    assertThat(ClopperPearson.upper(50, 50, 0.05)).isEqualTo(1.0);
    // closed forms, widened outward by the documented relative 1e-9
    double upperAtZero = 1 - Math.pow(0.05, 1.0 / 50);
    double lowerAtFull = Math.pow(0.05, 1.0 / 50);
    assertThat(ClopperPearson.upper(0, 50, 0.05))
        .isGreaterThanOrEqualTo(upperAtZero)
        .isCloseTo(upperAtZero, within(2e-9 * upperAtZero));
    assertThat(ClopperPearson.lower(50, 50, 0.05))
        .isLessThanOrEqualTo(lowerAtFull)
        .isCloseTo(lowerAtFull, within(2e-9 * lowerAtFull));
  }

  @Test
  void tinyUpperBoundKeepsRelativePrecisionAndAFiniteLog() {
    double upper = ClopperPearson.upper(0, 1_000_000_000L, 1e-3);

    // -log(α)/n to first order
    assertThat(upper).isCloseTo(-Math.log(1e-3) / 1e9, within(1e-15));
    assertThat(Math.log(upper)).isFinite();
  }

  @Test
  void boundsSolveTheBinomialTailEquationsThatDefineThem() {
    SplittableRandom random = new SplittableRandom(17);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + random.nextInt(5000);
      int k = random.nextInt(n + 1);
      double alpha = Math.pow(10, -1 - 5 * random.nextDouble());
      double lower = ClopperPearson.lower(k, n, alpha);
      double upper = ClopperPearson.upper(k, n, alpha);
      if (k > 0) {
        // Pr[X >= k | p = lower] = α, and the widening moves it to just below α
        double tail = BinomialDistribution.of(n, lower).survivalProbability(k - 1);
        assertThat(tail).as("n=%d k=%d", n, k).isLessThanOrEqualTo(alpha * (1 + 1e-6));
        assertThat(tail).isCloseTo(alpha, within(alpha * 1e-3));
      }
      if (k < n) {
        double tail = BinomialDistribution.of(n, upper).cumulativeProbability(k);
        assertThat(tail).as("n=%d k=%d", n, k).isLessThanOrEqualTo(alpha * (1 + 1e-6));
        assertThat(tail).isCloseTo(alpha, within(alpha * 1e-3));
      }
      assertThat(lower).isLessThanOrEqualTo((double) k / n);
      assertThat(upper).isGreaterThanOrEqualTo((double) k / n);
    }
  }

  @Test
  void boundsCoverTheTrueProportionAtLeastAsOftenAsPromised() {
    SplittableRandom random = new SplittableRandom(99);
    double p = 0.13;
    int n = 60;
    double alpha = 0.1;
    int trials = 4000;
    int lowerMisses = 0;
    int upperMisses = 0;
    for (int t = 0; t < trials; t++) {
      int k = 0;
      for (int i = 0; i < n; i++) {
        if (random.nextDouble() < p) {
          k++;
        }
      }
      if (ClopperPearson.lower(k, n, alpha) > p) {
        lowerMisses++;
      }
      if (ClopperPearson.upper(k, n, alpha) < p) {
        upperMisses++;
      }
    }
    // each one-sided miss rate is at most α (exactly conservative); allow 3 standard errors
    double slack = 3 * Math.sqrt(alpha * (1 - alpha) / trials);
    assertThat((double) lowerMisses / trials).isLessThanOrEqualTo(alpha + slack);
    assertThat((double) upperMisses / trials).isLessThanOrEqualTo(alpha + slack);
  }

  @Test
  void boundsAreMonotoneInTheCount() {
    double previousLower = -1;
    double previousUpper = -1;
    for (int k = 0; k <= 40; k++) {
      double lower = ClopperPearson.lower(k, 40, 0.01);
      double upper = ClopperPearson.upper(k, 40, 0.01);
      assertThat(lower).isGreaterThan(previousLower).isLessThan(upper);
      assertThat(upper).isGreaterThan(previousUpper);
      previousLower = lower;
      previousUpper = upper;
    }
  }

  @Test
  void rejectsInvalidArguments() {
    assertThatThrownBy(() -> ClopperPearson.lower(1, 0, 0.05))
        .hasMessage("trials must be >= 1, but was 0");
    assertThatThrownBy(() -> ClopperPearson.upper(11, 10, 0.05))
        .hasMessage("successes must be in [0, 10], but was 11");
    assertThatThrownBy(() -> ClopperPearson.upper(-1, 10, 0.05))
        .hasMessage("successes must be in [0, 10], but was -1");
    assertThatThrownBy(() -> ClopperPearson.lower(1, 10, 0))
        .hasMessage("alpha must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> ClopperPearson.lower(1, 10, Double.NaN))
        .hasMessage("alpha must be in (0, 1), but was NaN");
  }
}
