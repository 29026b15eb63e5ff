package dev.tradeoff.selection.stability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramStabilityTest {

  /** The bin counts of the paper's case study (h = 1/5 ... 1/100). */
  private static final int[] PAPER = {5, 10, 20, 50, 100};

  @Test
  void constantsAreTheoremSixWithTheRederivedNumeratorFour() {
    int n = 20_000;
    double alpha = 0.5;
    double delta = 1e-6;
    StabilityConstants c = HistogramStability.constants(n, alpha, PAPER, delta);
    double gamma = HistogramStability.paperGamma(n, alpha, 1.0 / 100, 5, delta);
    // 2 ln(4·5/1e-6)/(20000 · 0.5 · 0.1) = 2·16.8112/1000
    assertThat(gamma).isCloseTo(2 * Math.log(2e7) / 1000, within(1e-15));
    assertThat(HistogramStability.gamma(n, alpha, PAPER, delta))
        .isGreaterThanOrEqualTo(gamma)
        .isCloseTo(gamma, within(gamma * 1e-9));
    assertThat(c.beta1()).isCloseTo(4 * 100 / (1 - gamma), within(1e-6));
    assertThat(c.beta2()).isEqualTo(200);
    assertThat(c.delta()).isEqualTo(delta);
    assertThat(c.beta(n, 10_000)).isEqualTo(Math.nextUp(c.beta1() / n));
  }

  @Test
  void tooLittleTrainingDataForTheTheoremIsRefused() {
    assertThatThrownBy(() -> HistogramStability.constants(500, 0.5, PAPER, 1e-6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gamma")
        .hasMessageContaining("more training data");
    assertThatThrownBy(() -> HistogramStability.constants(10_000, 1, new int[] {1, 5}, 1e-6))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("binCounts[0]");
    assertThatThrownBy(() -> HistogramStability.constants(10_000, 1, PAPER, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta");
  }

  @Test
  void lemmaThreeConstantIsAtMostFourForTwoOrMoreSummands() {
    for (int s = 2; s <= 1000; s++) {
      assertThat(Math.pow(1 - 1.0 / s, -s)).isLessThanOrEqualTo(4.0);
    }
  }

  @Test
  void lemmaThreeTailBoundHoldsEmpirically() {
    SplittableRandom random = new SplittableRandom(3);
    int s = 5;
    double theta = Math.sqrt(s) * Math.log(4 / 0.05); // bound 4e^{−θ/√s} = 0.05
    int trials = 100_000;
    int exceed = 0;
    for (int t = 0; t < trials; t++) {
      double sum = 0;
      for (int i = 0; i < s; i++) {
        double e = -Math.log1p(-random.nextDouble());
        sum += random.nextBoolean() ? e : -e;
      }
      if (sum > theta) {
        exceed++;
      }
    }
    assertThat(exceed / (double) trials).isLessThan(0.05);
  }

  /**
   * The key step of Theorem 6 for every move of one training point, fractional clipping included:
   * with the noise fixed, |q(T) − q(T′)| ≤ 4/(h·min(n̂, n̂′)).
   */
  @Test
  void movingOneTrainingPointMovesTheScoreByAtMostFourOverHTimesTheNoisyTotal() {
    SplittableRandom random = new SplittableRandom(2026);
    double worst = 0;
    for (int trial = 0; trial < 20_000; trial++) {
      int bins = 2 + random.nextInt(9);
      double[] raw = new double[bins];
      for (int i = 0; i < bins; i++) {
        raw[i] = random.nextInt(4) + (random.nextDouble() * 3 - 1.5); // counts plus noise
      }
      int a = random.nextInt(bins);
      int b = (a + 1 + random.nextInt(bins - 1)) % bins;
      double[] moved = raw.clone();
      moved[a] -= 1;
      moved[b] += 1;
      double total = positiveSum(raw);
      double totalMoved = positiveSum(moved);
      if (total == 0 || totalMoved == 0) {
        continue;
      }
      HistogramDensity f = DpHistogramEstimator.fromNoisyCounts(raw);
      HistogramDensity g = DpHistogramEstimator.fromNoisyCounts(moved);
      double[] validation = new double[1 + random.nextInt(5)];
      for (int j = 0; j < validation.length; j++) {
        validation[j] = random.nextDouble();
      }
      double bound = 4.0 * bins / Math.min(total, totalMoved);
      double diff = Math.abs(f.score(validation) - g.score(validation));
      assertThat(diff).isLessThanOrEqualTo(bound * (1 + 1e-12));
      worst = Math.max(worst, diff / bound);
    }
    assertThat(worst).isGreaterThan(0.5); // the search reaches near the bound
  }

  @Test
  void onTheoremSixsEventTheTrainingStabilityBoundHolds() {
    SplittableRandom random = new SplittableRandom(77);
    int n = 20_000;
    double alpha = 0.5;
    StabilityConstants c = HistogramStability.constants(n, alpha, PAPER, 1e-6);
    double gamma = HistogramStability.gamma(n, alpha, PAPER, 1e-6);
    for (int trial = 0; trial < 300; trial++) {
      int bins = PAPER[random.nextInt(PAPER.length)];
      double[] raw = new double[bins];
      // a skewed count vector with n points and Laplace(2/α) noise
      for (int j = 0; j < n; j++) {
        raw[Math.min(bins - 1, (int) (bins * Math.pow(random.nextDouble(), 3)))]++;
      }
      for (int i = 0; i < bins; i++) {
        double e = -Math.log1p(-random.nextDouble()) * 2 / alpha;
        raw[i] += random.nextBoolean() ? e : -e;
      }
      assertThat(positiveSum(raw)).isGreaterThanOrEqualTo(n * (1 - gamma));
      int a = random.nextInt(bins);
      int b = random.nextInt(bins);
      double[] moved = raw.clone();
      moved[a] -= 1;
      moved[b] += 1;
      double[] validation = new double[50];
      for (int j = 0; j < validation.length; j++) {
        validation[j] = Math.pow(random.nextDouble(), 3);
      }
      double diff = Math.abs(DpHistogramEstimator.fromNoisyCounts(raw).score(validation)
          - DpHistogramEstimator.fromNoisyCounts(moved).score(validation));
      assertThat(diff).isLessThanOrEqualTo(c.beta1() / n);
    }
  }

  @Test
  void changingOneValidationPointMovesTheScoreByAtMostTwoOverHm() {
    SplittableRandom random = new SplittableRandom(5);
    for (int trial = 0; trial < 5_000; trial++) {
      int bins = 2 + random.nextInt(20);
      double[] raw = new double[bins];
      for (int i = 0; i < bins; i++) {
        raw[i] = random.nextDouble() * 10 - 2;
      }
      HistogramDensity f = DpHistogramEstimator.fromNoisyCounts(raw);
      int m = 1 + random.nextInt(30);
      double[] v = new double[m];
      for (int j = 0; j < m; j++) {
        v[j] = random.nextDouble();
      }
      double[] w = v.clone();
      w[random.nextInt(m)] = random.nextDouble();
      assertThat(Math.abs(f.score(v) - f.score(w))).isLessThanOrEqualTo(2.0 * bins / m * (1 + 1e-12));
    }
  }

  private static double positiveSum(double[] raw) {
    double s = 0;
    for (double x : raw) {
      s += Math.max(0, x);
    }
    return s;
  }
}
