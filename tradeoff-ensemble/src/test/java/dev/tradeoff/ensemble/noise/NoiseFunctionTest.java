package dev.tradeoff.ensemble.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class NoiseFunctionTest {

  /** Pr[majority of a uniformly random m-subset is 1], ties 1/2, by enumerating subsets. */
  private static double bruteForceSubsample(int k, int l, int m) {
    double total = 0;
    int subsets = 0;
    for (int mask = 0; mask < (1 << k); mask++) {
      if (Integer.bitCount(mask) != m) {
        continue;
      }
      subsets++;
      int ones = Integer.bitCount(mask & ((1 << l) - 1)); // votes 0..l-1 are 1
      if (2 * ones > m) {
        total += 1;
      } else if (2 * ones == m) {
        total += 0.5;
      }
    }
    return total / subsets;
  }

  @Test
  void subsamplingMatchesBruteForceSubsetEnumerationForEveryMOddAndEven() {
    for (int k = 1; k <= 13; k += 2) {
      for (int m = 1; m <= k; m++) {
        NoiseFunction gamma = NoiseFunction.subsampling(k, m);
        for (int l = 0; l <= k; l++) {
          double darrmOne = (l >= (k + 1) / 2 ? gamma.at(l) : 0) + 0.5 * (1 - gamma.at(l));
          assertThat(darrmOne).as("K=%d m=%d l=%d", k, m, l)
              .isCloseTo(bruteForceSubsample(k, l, m), within(1e-12));
        }
      }
    }
  }

  @Test
  void printedLemma31FormulaIsRightOnlyOnTheLowerHalf() {
    int k = 11;
    int m = 3;
    NoiseFunction gamma = NoiseFunction.subsampling(k, m);
    for (int l = 0; l <= k; l++) {
      double h = NoiseFunction.majorityOfSubsample(k, l, m);
      double printed = 1 - 2 * h;
      if (l <= (k - 1) / 2) {
        assertThat(gamma.at(l)).isCloseTo(printed, within(1e-14));
      } else {
        assertThat(printed).isNegative();
        assertThat(gamma.at(l)).isCloseTo(2 * h - 1, within(1e-14));
      }
    }
  }

  @Test
  void subsamplingOfOneTeacherIsOneOverKAtTheExtremesAndAllTeachersIsTheMajority() {
    NoiseFunction one = NoiseFunction.subsampling(11, 1);
    // m = 1: Pr[1] = l/K, so gamma(l) = |2l/K - 1|.
    for (int l = 0; l <= 11; l++) {
      assertThat(one.at(l)).isCloseTo(Math.abs(2.0 * l / 11 - 1), within(1e-14));
    }
    assertThat(NoiseFunction.subsampling(11, 11).values()).containsOnly(1.0);
  }

  @Test
  void doubleSubsamplingIsSubsamplingOfTwoMMinusOneOrOneAboveHalf() {
    assertThat(NoiseFunction.doubleSubsampling(11, 3)).isEqualTo(NoiseFunction.subsampling(11, 5));
    assertThat(NoiseFunction.doubleSubsampling(11, 6).values()).containsOnly(1.0);
    assertThat(NoiseFunction.doubleSubsampling(101, 40))
        .isEqualTo(NoiseFunction.subsampling(101, 79));
  }

  @Test
  void subsamplingIsSymmetricInRangeAndIncreasingAwayFromTheMiddle() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    for (int trial = 0; trial < 50; trial++) {
      int k = 2 * rnd.nextInt(30) + 1;
      int m = 1 + rnd.nextInt(k);
      double[] v = NoiseFunction.subsampling(k, m).values();
      for (int l = 0; l <= k; l++) {
        assertThat(v[l]).isBetween(0.0, 1.0).isEqualTo(v[k - l]);
      }
      for (int l = 1; l <= k / 2; l++) {
        assertThat(v[l]).isLessThanOrEqualTo(v[l - 1] + 1e-12);
      }
    }
  }

  @Test
  void userVectorsAreValidated() {
    assertThatThrownBy(() -> new NoiseFunction(new double[] {1, 0.5, 1}))
        .hasMessageContaining("odd K");
    assertThatThrownBy(() -> new NoiseFunction(new double[] {1, 0.5, 0.4, 1}))
        .hasMessageContaining("symmetric");
    assertThatThrownBy(() -> new NoiseFunction(new double[] {1.5, 0.5, 0.5, 1.5}))
        .hasMessageContaining("gamma[0] must be in [0, 1]");
    assertThatThrownBy(() -> new NoiseFunction(new double[] {Double.NaN, 1}))
        .hasMessageContaining("finite");
    assertThat(new NoiseFunction(new double[] {0.5, 0.5 + 1e-10}).at(0))
        .isEqualTo(new NoiseFunction(new double[] {0.5, 0.5 + 1e-10}).at(1));
    assertThatThrownBy(() -> NoiseFunction.subsampling(10, 3)).hasMessageContaining("odd");
    assertThatThrownBy(() -> NoiseFunction.subsampling(11, 12)).hasMessageContaining("m must be");
  }

  @Test
  void freeValuesRoundTrip() {
    NoiseFunction g = NoiseFunction.subsampling(9, 4);
    assertThat(NoiseFunction.fromFreeValues(9, g.freeValues())).isEqualTo(g);
    assertThat(g.scaled(0.5).at(0)).isEqualTo(0.5 * g.at(0));
  }
}
