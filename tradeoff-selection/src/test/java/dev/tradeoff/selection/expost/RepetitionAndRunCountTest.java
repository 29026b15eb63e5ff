package dev.tradeoff.selection.expost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Theorem 12's T_i and the law of the number of runs (Figure 1's Theorem 11 curve). */
class RepetitionAndRunCountTest {

  @Test
  void repetitionCountMatchesTheFormulaWhereItFitsAndSurvivesOverflow() {
    // a = 0.1, β = 0.1, ε_i = ε′: T = ⌈10·20·ln 20⌉ = ⌈599.146…⌉ = 600
    RepetitionCount t = RepetitionCount.of(0.1, 0.1, 0.01, 0.01);
    assertThat(t.asLong()).hasValue(600);
    assertThat(t.ceiling()).isEqualTo(BigInteger.valueOf(600));
    // ε_i/ε′ = 1000, β = 0.01: (200)^1000 ≈ 10^2301 overflows a double
    RepetitionCount huge = RepetitionCount.of(0.5, 0.01, 10, 0.01);
    assertThat(Math.exp(huge.logValue())).isInfinite();
    assertThat(huge.asLong()).isEmpty();
    double expectedLog10 =
        Math.log10(2) + 1000 * Math.log10(200) + Math.log10(Math.log(200));
    assertThat(huge.log10()).isCloseTo(expectedLog10, within(1e-9));
    assertThat(huge.ceiling().toString().length()).isEqualTo((int) Math.floor(expectedLog10) + 1);
  }

  @Test
  void theorem12CountsDeliverSuccessProbabilityOneMinusBetaOnTheExactLaw() {
    // one mechanism listed T times; Pr[M ≥ o*] = a; failure iff every copy is dropped or below o*:
    // Pr[fail] = Σ_k (1 − p)p^k (1 − e^{−εk}a)^T, summed to k = 100/ε′
    double[][] settings = {{0.2, 0.1, 0.05, 0.05}, {0.5, 0.05, 0.1, 0.05}, {0.1, 0.2, 0.02, 0.01}};
    for (double[] s : settings) {
      double a = s[0];
      double beta = s[1];
      double eps = s[2];
      double epsPrime = s[3];
      long t = RepetitionCount.of(a, beta, eps, epsPrime).asLong().orElseThrow();
      double fail = 0;
      for (long k = 0; k <= 100 / epsPrime; k++) {
        double geom = -Math.expm1(-epsPrime) * Math.exp(-epsPrime * k);
        fail += geom * Math.exp(t * Math.log1p(-Math.exp(-eps * k) * a));
      }
      assertThat(fail).as("a=%s beta=%s", a, beta).isLessThanOrEqualTo(beta);
    }
  }

  @Test
  void theorem11WithOneHundredFiveCopiesRunsTenTimesOnAverageWithStdAbout22() {
    RunCountDistribution n = RunCountDistribution.of(0.1, 0.01, 105);
    assertThat(n.mean()).isCloseTo(10.0, within(0.1));
    assertThat(n.standardDeviation()).isCloseTo(22, within(0.5));
    double total = 0;
    double mean = 0;
    double second = 0;
    for (int k = 0; k <= 105; k++) {
      total += n.probability(k);
      mean += k * n.probability(k);
      second += (double) k * k * n.probability(k);
    }
    assertThat(total).isCloseTo(1, within(1e-12));
    assertThat(mean).isCloseTo(n.mean(), within(1e-9));
    assertThat(second - mean * mean).isCloseTo(n.variance(), within(1e-7));
    // ⊥ needs all 105 copies dropped: Σ_k (1−p)p^k (1 − e^{−0.1k})^105, summed independently
    // in double precision to k = 20000 (Python): 0.5940527717231548
    assertThat(n.probabilityNone()).isCloseTo(0.5940527717231548, within(1e-13));
  }

  @Test
  void oneCopyRunsWithProbabilityEqualToTheDropSurvival() {
    RunCountDistribution n = RunCountDistribution.of(0.3, 0.2, 1);
    double survive = Math.expm1(-0.2) / Math.expm1(-0.5);
    assertThat(n.probability(1)).isCloseTo(survive, within(1e-14));
    assertThat(n.probabilityNone()).isCloseTo(1 - survive, within(1e-14));
  }
}
