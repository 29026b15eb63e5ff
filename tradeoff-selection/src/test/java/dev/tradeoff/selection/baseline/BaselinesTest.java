package dev.tradeoff.selection.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.expost.Scored;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The tuning baselines' laws and accounting. */
class BaselinesTest {

  @Test
  void truncatedNegativeBinomialMomentsMatchItsPmf() {
    for (double eta : new double[] {-0.5, 0, 0.1, 1, 3}) {
      for (double gamma : new double[] {0.01, 0.1, 0.5}) {
        TruncatedNegativeBinomial k = new TruncatedNegativeBinomial(eta, gamma);
        double total = 0;
        double mean = 0;
        double second = 0;
        double p = Math.exp(k.logProbability(1));
        assertThat(Math.log(p) + Math.log((1 - gamma) * (6 + eta) / 7) + Math.log((1 - gamma) * (7 + eta) / 8))
            .isCloseTo(k.logProbability(1) + k.logProbability(8) - k.logProbability(6), within(1e-9));
        for (long n = 1; n < 20_000; n++) {
          if (n > 1) {
            p *= (1 - gamma) * (n - 1 + eta) / n;
          }
          total += p;
          mean += n * p;
          second += (double) n * n * p;
        }
        assertThat(total).as("eta %s gamma %s", eta, gamma).isCloseTo(1, within(1e-9));
        assertThat(mean).isCloseTo(k.mean(), within(1e-7 * k.mean()));
        assertThat(second - mean * mean).isCloseTo(k.variance(), within(1e-6 * k.variance()));
      }
    }
    // η = 1: geometric on {1, 2, …} with mean 1/γ
    assertThat(new TruncatedNegativeBinomial(1, 0.1).mean()).isCloseTo(10, within(1e-12));
  }

  @Test
  void truncatedNegativeBinomialSamplerHasItsMean() {
    TruncatedNegativeBinomial k = new TruncatedNegativeBinomial(0.1, 0.05);
    RandomGenerator r = Randomness.seeded(9);
    double sum = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      sum += k.sample(r);
    }
    assertThat(sum / n).isCloseTo(k.mean(), within(5 * Math.sqrt(k.variance() / n)));
  }

  @Test
  void papernotSteinkeAccounting() {
    TruncatedNegativeBinomial k = new TruncatedNegativeBinomial(0.1, 0.05);
    assertThat(k.pureEpsilon(0.1)).isCloseTo(0.21, within(1e-15)).isGreaterThanOrEqualTo(0.21);
    double rdp = k.renyiEpsilon(10, 0.5, 20, 1.0);
    assertThat(rdp)
        .isCloseTo(
            0.5 + 1.1 * (1 - 1.0 / 20) * 1.0 + 1.1 * Math.log(20) / 20 + Math.log(k.mean()) / 9,
            within(1e-12));
    PoissonRepetitions poisson = new PoissonRepetitions(10);
    assertThat(poisson.renyiEpsilon(5, 1, 0.2, 1e-6))
        .isCloseTo(1 + 1e-5 + Math.log(10) / 4, within(1e-12));
    assertThatThrownBy(() -> poisson.renyiEpsilon(5, 1, 1.0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Theorem 6");
    RandomGenerator r = Randomness.seeded(3);
    double sum = 0;
    for (int i = 0; i < 4_000; i++) {
      sum += new PoissonRepetitions(800).sample(r);
    }
    assertThat(sum / 4_000).isCloseTo(800, within(5 * Math.sqrt(800.0 / 4_000)));
  }

  @Test
  void randomStoppingRunsGeometricallyAndCostsThreeEpsilon() {
    RandomStopping stopping = new RandomStopping(0.2, 0.25);
    RandomGenerator r = Randomness.seeded(5);
    long runs = 0;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      RandomStopping.Result<Double> res = stopping.run(g -> new Scored<>(g.nextDouble(), 0.0), r);
      runs += res.runs();
      assertThat(res.best()).isNotNull();
    }
    assertThat((double) runs / n).isCloseTo(4, within(5 * Math.sqrt(12.0 / n)));
    assertThat(stopping.guarantee().epsilon()).isGreaterThanOrEqualTo(0.6).isLessThan(0.6000001);
  }

  @Test
  void doublingPaysEveryAttemptAndStopsWhenTheNextDoesNotFit() {
    Doubling doubling = new Doubling(new double[] {0.1, 0.2, 0.4, 0.8});
    RandomGenerator r = Randomness.seeded(1);
    Doubling.Result<Double> third = doubling.run((e, g) -> e, (o, e) -> o >= 0.4, 10, r);
    assertThat(third.accepted()).isTrue();
    assertThat(third.level()).isEqualTo(2);
    assertThat(third.spent()).isCloseTo(0.7, within(1e-12)).isGreaterThanOrEqualTo(0.7);
    Doubling.Result<Double> capped = doubling.run((e, g) -> e, (o, e) -> false, 0.5, r);
    assertThat(capped.accepted()).isFalse();
    assertThat(capped.level()).isEqualTo(1);
    assertThat(capped.spent()).isCloseTo(0.3, within(1e-12));
  }

  @Test
  void noiseReductionHasLaplaceMarginalsAndPaysOnlyTheLastLevel() {
    double[] budgets = {0.1, 0.2, 0.5, 1.0};
    LaplaceNoiseReduction nr = new LaplaceNoiseReduction(budgets, 1);
    RandomGenerator r = Randomness.seeded(2);
    int n = 40_000;
    double[] second = new double[budgets.length];
    double[] absolute = new double[budgets.length];
    for (int i = 0; i < n; i++) {
      double[] eta = nr.noise(r);
      for (int t = 0; t < budgets.length; t++) {
        second[t] += eta[t] * eta[t];
        absolute[t] += Math.abs(eta[t]);
      }
    }
    for (int t = 0; t < budgets.length; t++) {
      double b = 1 / budgets[t];
      // Laplace(b): E|η| = b (sd b), E η² = 2b²
      assertThat(absolute[t] / n).isCloseTo(b, within(5 * b / Math.sqrt(n)));
      assertThat(second[t] / n).isCloseTo(2 * b * b, within(5 * Math.sqrt(20.0) * b * b / Math.sqrt(n)));
    }
    LaplaceNoiseReduction.Result res = nr.run(100, (y, e) -> e >= 0.5, r);
    assertThat(res.level()).isEqualTo(2);
    assertThat(res.spent()).isEqualTo(0.5);
    assertThat(nr.maximumCost()).isEqualTo(1.0);
  }
}
