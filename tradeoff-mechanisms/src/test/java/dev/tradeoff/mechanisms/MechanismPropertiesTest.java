package dev.tradeoff.mechanisms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.mechanisms.response.RandomizedResponse;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Seeded randomized properties over wide parameter ranges. */
class MechanismPropertiesTest {

  @Test
  void laplaceScaleIsNeverBelowTextbookAndOutputsStayOnTheLattice() {
    SplittableRandom params = new SplittableRandom(100);
    RandomGenerator random = Randomness.seeded(101);
    for (int trial = 0; trial < 200; trial++) {
      double epsilon = Math.exp(params.nextDouble(Math.log(1e-3), Math.log(10)));
      double sensitivity = Math.exp(params.nextDouble(Math.log(1e-6), Math.log(1e6)));
      LaplaceMechanism m = LaplaceMechanism.of(epsilon, sensitivity);
      double textbook = sensitivity / epsilon;
      assertThat(m.scale()).isGreaterThanOrEqualTo(textbook * (1 - 1e-15));
      // lattice sensitivity (+1 step in 2^40) and the whole-step scale (+1 step in Δ_g/ε)
      assertThat(m.scale()).isLessThanOrEqualTo(textbook * (1 + (1 + epsilon) * 0x1.0p-40) * (1 + 1e-15));
      double g = m.noise().grid().granularity();
      double x = params.nextDouble(-1e6, 1e6);
      double y = m.release(x, random);
      assertThat(y / g).isEqualTo(Math.rint(y / g));
    }
  }

  @Test
  void gaussianSigmaIsNeverBelowTheContinuousAnalyticSigmaAndStaysClose() {
    SplittableRandom params = new SplittableRandom(102);
    for (int trial = 0; trial < 60; trial++) {
      double epsilon = Math.exp(params.nextDouble(Math.log(0.01), Math.log(20)));
      double delta = Math.exp(params.nextDouble(Math.log(1e-14), Math.log(0.1)));
      double sensitivity = Math.exp(params.nextDouble(Math.log(1e-3), Math.log(1e3)));
      GaussianMechanism m = GaussianMechanism.of(epsilon, delta, sensitivity);
      double mu = sensitivity / m.sigma();
      // the continuous Gaussian at the mechanism's σ meets (ε, δ) (the lattice slack is extra)
      assertThat(continuousDelta(epsilon, mu)).isLessThanOrEqualTo(delta);
      // and σ is close to the smallest such σ: the lattice slack takes less than half of δ
      assertThat(continuousDelta(epsilon, mu * (1 + 1e-6))).isGreaterThan(delta / 2);
    }
  }

  @Test
  void randomizedResponseLikelihoodRatioIsExactlyEToEpsilon() {
    SplittableRandom params = new SplittableRandom(103);
    for (int trial = 0; trial < 100; trial++) {
      double epsilon = params.nextDouble(0, 8);
      int k = params.nextInt(2, 50);
      RandomizedResponse rr = RandomizedResponse.kAry(epsilon, k);
      double truth = rr.truthProbability();
      double other = (1 - truth) / (k - 1);
      assertThat(Math.log(truth / other)).isCloseTo(epsilon, org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  /** Balle–Wang Theorem 8 in plain doubles (an independent evaluation). */
  private static double continuousDelta(double epsilon, double mu) {
    return dev.tradeoff.accounting.numerics.StandardNormal.cdf(-epsilon / mu + mu / 2)
        - Math.exp(epsilon) * dev.tradeoff.accounting.numerics.StandardNormal.cdf(-epsilon / mu - mu / 2);
  }
}
