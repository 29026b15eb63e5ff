package dev.tradeoff.ensemble.gnmax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GnMaxTest {

  @Test
  void calibrationMeetsTheTargetAndReproducesTable4Sigma() {
    ApproxDp target = new ApproxDp(0.2676, 0.0003);
    GnMax g = GnMax.calibrated(target);
    assertThat(g.sigma()).isCloseTo(21.46, within(0.01));
    assertThat(g.toDp(g.gaussianRdp(), 0.0003).epsilon()).isLessThanOrEqualTo(0.2676 * (1 + 1e-9));
  }

  @Test
  void noisyArgmaxFollowsTheNormalDifferenceLaw() {
    GnMax g = new GnMax(2.0, 5);
    SplittableRandom rnd = new SplittableRandom(8);
    int n = 50_000;
    int firsts = 0;
    for (int i = 0; i < n; i++) {
      firsts += g.aggregate(new int[] {7, 4}, rnd) == 0 ? 1 : 0;
    }
    // Pr[7 + X > 4 + Y] = Φ(3 / (2√2)).
    double expected = dev.tradeoff.accounting.numerics.StandardNormal.cdf(3 / (2 * Math.sqrt(2)));
    assertThat(firsts / (double) n).isCloseTo(expected, within(5 * Math.sqrt(0.25 / n)));
  }

  @Test
  void dataDependentBoundFallsBackToGaussianForElevenTeachersAndTwoClasses() {
    // DaRRM D.2.1: with K = 11, C = 2 the condition fails even at a unanimous vote.
    GnMax g = GnMax.calibrated(new ApproxDp(0.2676, 0.0003));
    assertThat(g.dataDependentRdp(new int[] {11, 0})).isEqualTo(g.gaussianRdp());
  }

  @Test
  void dataDependentBoundIsSmallerForAStrongConsensusOfManyTeachers() {
    GnMax g = new GnMax(40, 20);
    double dd = g.dataDependentRdp(new int[] {320, 10, 5});
    assertThat(dd).isLessThan(g.gaussianRdp()).isPositive();
    // Weak consensus: the Gaussian bound.
    assertThat(g.dataDependentRdp(new int[] {60, 55, 50})).isEqualTo(g.gaussianRdp());
  }
}
