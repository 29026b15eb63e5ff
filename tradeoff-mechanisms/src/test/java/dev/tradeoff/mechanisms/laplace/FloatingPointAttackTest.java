package dev.tradeoff.mechanisms.laplace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Mironov 2012, "On significance of the least significant bits for differential privacy": the
 * textbook Laplace mechanism on doubles leaks its input through the SET of outputs it can produce.
 */
class FloatingPointAttackTest {

  private static final double UNIT_53 = 0x1.0p-53;

  /** The textbook sampler: x + b·sign(u)·log(1 − 2|u|) with u uniform on the 2^−53 grid. */
  private static double textbookLaplace(double x, double b, RandomGenerator random) {
    double u = ((random.nextLong() >>> 11) * UNIT_53) - 0.5;
    double noise = -b * Math.signum(u) * Math.log(1 - 2 * Math.abs(u));
    return x + noise;
  }

  /**
   * Any output y in (0, 0.5) from input 1 is 1 + n with n in (−1, −0.5), computed exactly
   * (Sterbenz), and doubles in [0.5, 1) are multiples of 2^−53: so from input 1 no output in
   * (0, 0.5) is off the 2^−53 grid. From input 0 the output is the noise itself, whose values near
   * zero have much finer ulps. The event "output in (0, 0.5) and not a multiple of 2^−53" therefore
   * has positive probability on input 0 and probability zero on input 1: infinite privacy loss.
   */
  @Test
  void textbookFloatingPointLaplaceRevealsItsInputThroughReachableOutputs() {
    RandomGenerator random = Randomness.seeded(44);
    int n = 100_000;
    int distinguishingFromZero = 0;
    int distinguishingFromOne = 0;
    for (int i = 0; i < n; i++) {
      if (offTheGridNearZero(textbookLaplace(0, 1, random))) {
        distinguishingFromZero++;
      }
      if (offTheGridNearZero(textbookLaplace(1, 1, random))) {
        distinguishingFromOne++;
      }
    }
    // Pr[Lap(1) in (0, 0.5)] ≈ 0.197; below 0.25 nearly all of it is off the grid, above about half
    assertThat(distinguishingFromZero).isGreaterThan(n / 10);
    assertThat(distinguishingFromOne).isZero();
  }

  @Test
  void tradeoffLaplaceOutputSetIsTheSameLatticeForEveryInput() {
    LaplaceMechanism m = LaplaceMechanism.of(1, 1);
    double g = m.noise().grid().granularity();
    RandomGenerator random = Randomness.seeded(45);
    int n = 100_000;
    int nearZeroFromZero = 0;
    int nearZeroFromOne = 0;
    for (int i = 0; i < n; i++) {
      double fromZero = m.release(0.0, random);
      double fromOne = m.release(1.0, random);
      // every output, from either input, lies on the same lattice gℤ (g = 2^-40, a multiple of
      // 2^-53), so the distinguishing event of the textbook sampler is empty for both inputs
      assertThat(fromZero / g).isEqualTo(Math.rint(fromZero / g));
      assertThat(fromOne / g).isEqualTo(Math.rint(fromOne / g));
      assertThat(offTheGridNearZero(fromZero)).isFalse();
      assertThat(offTheGridNearZero(fromOne)).isFalse();
      nearZeroFromZero += fromZero > 0 && fromZero < 0.5 ? 1 : 0;
      nearZeroFromOne += fromOne > 0 && fromOne < 0.5 ? 1 : 0;
    }
    // and the region (0, 0.5) is reached from both inputs, with frequencies in ratio ≤ e^ε
    assertThat(nearZeroFromZero).isGreaterThan(n / 6);
    assertThat(nearZeroFromOne).isGreaterThan(n / 10);
    assertThat((double) nearZeroFromZero / nearZeroFromOne).isLessThan(Math.E);
  }

  private static boolean offTheGridNearZero(double y) {
    return y > 0 && y < 0.5 && y / UNIT_53 != Math.rint(y / UNIT_53);
  }
}
