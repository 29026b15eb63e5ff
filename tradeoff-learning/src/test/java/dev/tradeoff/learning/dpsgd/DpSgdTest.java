package dev.tradeoff.learning.dpsgd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticLoss;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DpSgdTest {

  @Test
  void stepsAreEpochsOverTheSamplingRateRoundedUp() {
    assertThat(DpSgd.stepsForEpochs(5, 32.0 / 909)).isEqualTo(143);
    assertThat(DpSgd.stepsForEpochs(1, 0.5)).isEqualTo(2);
    assertThat(DpSgd.stepsForEpochs(1, 0.3)).isEqualTo(4);
    assertThat(DpSgd.forEpochs(12, 1, 0.01, 5, 0.1, 0).steps()).isEqualTo(500);
  }

  @Test
  void eventIsTheSelfComposedPoissonSampledGaussian() {
    DpSgd dp = new DpSgd(12, 1, 0.02, 250, 0.1, 0);
    assertThat(dp.event())
        .isEqualTo(
            new SelfComposedEvent(new PoissonSampledEvent(0.02, new GaussianEvent(12)), 250));
    assertThat(dp.neighbouring()).isEqualTo(Neighbouring.ADD_OR_REMOVE_ONE);
  }

  @Test
  void guaranteeIsTheAccountantAppliedToTheSameEvent() {
    SplittableRandom random = new SplittableRandom(4);
    for (int trial = 0; trial < 6; trial++) {
      double sigma = 0.8 + 10 * random.nextDouble();
      double q = 0.001 + 0.1 * random.nextDouble();
      int steps = 1 + random.nextInt(400);
      double delta = Math.pow(10, -3 - 4 * random.nextDouble());
      DpSgd dp = new DpSgd(sigma, 1, q, steps, 0.1, 0);
      SelfComposedEvent event =
          new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
      double pld = new PldAccountant().account(event, Neighbouring.ADD_OR_REMOVE_ONE).epsilon(delta);
      double rdp = new RdpAccountant().account(event, Neighbouring.ADD_OR_REMOVE_ONE).epsilon(delta);
      assertThat(dp.guarantee(delta)).isEqualTo(new ApproxDp(pld, delta));
      assertThat(dp.guarantee(delta, new RdpAccountant())).isEqualTo(new ApproxDp(rdp, delta));
      // both are upper bounds; PLD is the tighter one here
      assertThat(pld).isLessThanOrEqualTo(rdp * (1 + 1e-9));
    }
  }

  @Test
  void paperTeacherBudgetIsReproducedWithExpectedBatch32OnShardsOf909() {
    // [DaRRM24, Section 6.2]: σ = 12, C = 1, 5 epochs, 10000/11 ≈ 909 records per teacher,
    // (ε, Δ) = (0.0852, 1e-4) on Fashion-MNIST. The batch size is not printed; an expected lot of
    // 32 (q = 32/909, T = 143) gives ε = 0.0851 by PLD and 0.0989 by RDP.
    DpSgd dp = DpSgd.forEpochs(12, 1, 32.0 / 909, 5, 0.2, 0);
    assertThat(dp.guarantee(1e-4).epsilon()).isCloseTo(0.0851, within(5e-4));
    assertThat(dp.guarantee(1e-4, new RdpAccountant()).epsilon()).isCloseTo(0.0989, within(5e-4));
  }

  @Test
  void calibrationInvertsTheGuarantee() {
    double q = 32.0 / 909;
    int steps = DpSgd.stepsForEpochs(5, q);
    PldAccountant pld = new PldAccountant();
    double epsilon = new DpSgd(12, 1, q, steps, 0.2, 0).guarantee(1e-4, pld).epsilon();
    double sigma = DpSgd.calibrateNoiseMultiplier(q, steps, epsilon, 1e-4, pld);
    assertThat(sigma).isLessThanOrEqualTo(12 * (1 + 1e-6)).isGreaterThan(11.9);
    assertThat(new DpSgd(sigma, 1, q, steps, 0.2, 0).guarantee(1e-4, pld).epsilon())
        .isLessThanOrEqualTo(epsilon);
  }

  @Test
  void clippingScalesLargeGradientsToTheClipNormAndKeepsSmallOnes() {
    Dataset data = Dataset.of(new double[][] {{3, 4}, {0.03, 0.04}}, new int[] {1, 0});
    DpSgd dp = new DpSgd(1, 0.5, 1, 1, 0.1, 0);
    double[] w = {0, 0};
    // row 0: ℓ′(0) = −1/2, g = (−1.5, −2), norm 2.5 → scaled to norm 0.5
    assertThat(dp.clippedGradient(data, 0, w)).containsExactly(new double[] {-0.3, -0.4},
        within(1e-15));
    // row 1: ℓ′(0) = +1/2, g = (0.015, 0.02), norm 0.025 < 0.5 → kept
    assertThat(dp.clippedGradient(data, 1, w))
        .containsExactly(LogisticLoss.exampleGradient(w, data, 1));
    SplittableRandom random = new SplittableRandom(2);
    for (int k = 0; k < 200; k++) {
      double[] v = {random.nextGaussian() * 5, random.nextGaussian() * 5};
      double[] g = dp.clippedGradient(data, k % 2, v);
      assertThat(Math.hypot(g[0], g[1])).isLessThanOrEqualTo(0.5 * (1 + 1e-15));
    }
  }

  @Test
  void noiseOfOneStepHasStandardDeviationSigmaTimesClipOverTheLot() {
    // Zero features give zero gradients, so with q = 1, T = 1, η = 1, λ = 0 the weights are
    // −(noise)/n: each coordinate N(0, (σC/n)²).
    int d = 3000;
    int n = 4;
    Dataset zeros = Dataset.ofFlat(d, new double[n * d], new int[] {0, 1, 0, 1});
    DpSgd dp = new DpSgd(2.5, 0.4, 1, 1, 1, 0);
    double[] w = dp.train(zeros, Randomness.seeded(12)).weights();
    double s = 0;
    double mean = 0;
    for (double v : w) {
      s += v * v;
      mean += v / d;
    }
    double expected = 2.5 * 0.4 / n;
    // sample sd of 3000 normals: relative error ~ 1/√6000 ≈ 1.3%; 5% is > 3.8 sd
    assertThat(Math.sqrt(s / d)).isCloseTo(expected, within(0.05 * expected));
    assertThat(mean).isCloseTo(0, within(4 * expected / Math.sqrt(d)));
  }

  @Test
  void seededRunsAreReproducibleAndProgressIsReported() {
    Dataset data =
        Dataset.of(new double[][] {{1, 0}, {0, 1}, {0.5, 0.5}, {-1, 0}}, new int[] {1, 0, 1, 0});
    DpSgd dp = new DpSgd(1, 1, 0.5, 7, 0.5, 0.01);
    List<Integer> steps = new ArrayList<>();
    double[] a = dp.train(data, Randomness.seeded(3), (s, t) -> steps.add(s)).weights();
    double[] b = dp.train(data, Randomness.seeded(3)).weights();
    assertThat(a).containsExactly(b);
    assertThat(steps).containsExactly(1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void withLittleNoiseItLearnsASeparableProblem() {
    SplittableRandom random = new SplittableRandom(8);
    int n = 400;
    double[][] rows = new double[n][];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      double x = random.nextGaussian();
      labels[i] = x > 0 ? 1 : 0;
      rows[i] = new double[] {x / 3, 0.5 * random.nextGaussian() / 3};
    }
    Dataset data = Dataset.of(rows, labels);
    DpSgd dp = DpSgd.forEpochs(0.5, 1, 0.1, 10, 1, 0);
    double accuracy =
        new dev.tradeoff.learning.logistic.LogisticModel(
                dp.train(data, Randomness.seeded(4)).weights())
            .accuracy(data);
    assertThat(accuracy).isGreaterThan(0.95);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new DpSgd(0, 1, 0.1, 1, 0.1, 0))
        .hasMessage("noiseMultiplier must be > 0 and finite, but was 0.0");
    assertThatThrownBy(() -> new DpSgd(1, 1, 1.5, 1, 0.1, 0))
        .hasMessage("samplingRate must be in (0, 1], but was 1.5");
    assertThatThrownBy(() -> new DpSgd(1, 1, 0.1, 0, 0.1, 0))
        .hasMessage("steps must be >= 1, but was 0");
    assertThatThrownBy(() -> DpSgd.stepsForEpochs(1e9, 1e-3))
        .hasMessageContaining("must be < 2^31");
  }
}
