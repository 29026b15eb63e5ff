package dev.tradeoff.ensemble.utility;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DarrmErrorTest {

  /** |Pr[DaRRM = 1] − Pr[majority = 1]| by enumerating all 2^K vote vectors. */
  private static double bruteForceError(NoiseFunction gamma, double[] p) {
    int k = p.length;
    double darrm = 0;
    double majority = 0;
    for (int mask = 0; mask < (1 << k); mask++) {
      double prob = 1;
      for (int i = 0; i < k; i++) {
        prob *= ((mask >> i) & 1) == 1 ? p[i] : 1 - p[i];
      }
      int l = Integer.bitCount(mask);
      boolean maj = 2 * l > k;
      majority += maj ? prob : 0;
      darrm += prob * ((maj ? gamma.at(l) : 0) + 0.5 * (1 - gamma.at(l)));
    }
    return Math.abs(darrm - majority);
  }

  @Test
  void exactErrorMatchesEnumerationOfAllVoteVectors() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int trial = 0; trial < 40; trial++) {
      int k = 2 * rnd.nextInt(5) + 1;
      double[] p = new double[k];
      for (int i = 0; i < k; i++) {
        p[i] = rnd.nextDouble();
      }
      NoiseFunction gamma = NoiseFunction.subsampling(k, 1 + rnd.nextInt(k));
      assertThat(DarrmError.exact(gamma, p)).isCloseTo(bruteForceError(gamma, p), within(1e-14));
    }
  }

  @Test
  void surrogateEqualsTheExpectationOverUniformHalfToOne() {
    NoiseFunction gamma = NoiseFunction.subsampling(11, 3);
    DarrmError.Estimate mc = DarrmError.monteCarlo(gamma, new Prior.Uniform(0.5, 1), 20_000,
        new SplittableRandom(9));
    double exact = DarrmError.surrogate(gamma, 0.75);
    assertThat(Math.abs(mc.mean() - exact)).isLessThan(4 * mc.standardError());
    assertThat(mc.standardError()).isPositive().isLessThan(0.01);
  }

  @Test
  void trueMajorityHasNoErrorAndACoinHasTheMajorityBiasAsError() {
    double[] p = {0.9, 0.2, 0.7};
    assertThat(DarrmError.exact(NoiseFunction.constant(3, 1), p)).isZero();
    double maj = 0.9 * 0.7 * 0.8 + 0.9 * 0.2 * 0.3 + 0.1 * 0.2 * 0.7 + 0.9 * 0.2 * 0.7;
    assertThat(DarrmError.exact(NoiseFunction.constant(3, 0), p))
        .isCloseTo(Math.abs(0.5 - maj), within(1e-15));
  }

  @Test
  void poissonBinomialSumsToOneAndMatchesBinomial() {
    double[] a = DarrmError.poissonBinomial(new double[] {0.3, 0.3, 0.3, 0.3});
    double[] b = DarrmError.binomialPmf(4, 0.3);
    for (int l = 0; l <= 4; l++) {
      assertThat(a[l]).isCloseTo(b[l], within(1e-15));
    }
  }

  @Test
  void priorsDrawFromTheirSupport() {
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      double x = new Prior.Polarized().sample(rnd);
      assertThat(x <= 0.3 || x >= 0.7).isTrue();
      assertThat(new Prior.Empirical(new double[] {0.2, 0.8}).sample(rnd)).isIn(0.2, 0.8);
    }
  }
}
