package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link LargeStepSplit} against exact values: a per-step law on the integer grid (Δ = 1) with a
 * bulk at losses 0 and 1 and a rare large step at loss L, composed n times, whose hockey-stick
 * sum δ(ε) = Σ_{k,j} C(n, k)C(n − k, j)(1 − r − s)^{n−k−j} r^j s^k (1 − e^{ε − (j + kL)})_+ is
 * summed exactly here (every term non-negative, in log space for the coefficients). At ε just
 * below L + a few the answer is made of one large step, as for a sampled Gaussian at tiny δ.
 */
class LargeStepSplitTest {

  private static double exactDelta(int n, double r, double s, int large, double epsilon) {
    double logBulk = Math.log1p(-r - s);
    double sum = 0;
    for (int k = 0; k <= n; k++) {
      for (int j = 0; j <= n - k; j++) {
        double loss = j + (double) k * large;
        if (loss <= epsilon) {
          continue;
        }
        double log = logChoose(n, k) + logChoose(n - k, j) + (n - k - j) * logBulk
            + j * Math.log(r) + k * Math.log(s);
        sum += Math.exp(log) * -Math.expm1(epsilon - loss);
      }
    }
    return sum;
  }

  private static double logChoose(int n, int k) {
    double log = 0;
    for (int i = 1; i <= k; i++) {
      log += Math.log(n - k + i) - Math.log(i);
    }
    return log;
  }

  private static LargeStepSplit split(Discretization side, int n, double r, double s, int large,
      double delta, double aim) {
    double[] masses = new double[large + 1];
    masses[0] = 1 - r - s;
    masses[1] = r;
    masses[large] = s;
    PrivacyLossDistribution step = new PrivacyLossDistribution(side, 1.0, 0, masses, 0, 0);
    return LargeStepSplit.of(new Composer(1e-300, 1 << 16),
        new Composer.Term(step, n), 0, delta, aim);
  }

  @Test
  void upperAndLowerBoundsHoldTheExactDeltaOfAOneLargeStepTail() {
    SplittableRandom random = new SplittableRandom(42);
    for (int trial = 0; trial < 6; trial++) {
      int n = 20 + random.nextInt(60);
      double r = 0.02 + 0.1 * random.nextDouble();
      double s = Math.pow(10, -20 - 20 * random.nextDouble());
      int large = 30 + random.nextInt(20);
      double epsilon = large + 2 + random.nextInt(4);
      double exact = exactDelta(n, r, s, large, epsilon);
      LargeStepSplit upper = split(Discretization.PESSIMISTIC, n, r, s, large, exact, epsilon);
      LargeStepSplit lower = split(Discretization.OPTIMISTIC, n, r, s, large, exact, epsilon);
      String what = "n " + n + " r " + r + " s " + s + " L " + large + " eps " + epsilon
          + ", exact " + exact;
      assertThat(upper).as(what).isNotNull();
      assertThat(lower).as(what).isNotNull();
      // The exact sum is accurate to about 1e-13 relative; the bounds are valid to round-off and
      // tight to the remainder bound (at most 1e-4 of δ) and the transforms' round-off.
      assertThat(upper.delta(epsilon)).as(what)
          .isGreaterThanOrEqualTo(exact * (1 - 1e-12))
          .isLessThanOrEqualTo(exact * (1 + 2e-4));
      assertThat(lower.delta(epsilon)).as(what)
          .isLessThanOrEqualTo(exact * (1 + 1e-12))
          .isGreaterThanOrEqualTo(exact * (1 - 1e-6));
    }
  }

  @Test
  void noSplitWhenTheLargeStepsAreNotRareEnoughForTheDeltaAsked() {
    // n·s = 0.05 is far above √(2·10^-4·δ) for δ = 1e-10: the remainder would not be small.
    assertThat(split(Discretization.PESSIMISTIC, 50, 0.1, 1e-3, 30, 1e-10, 32)).isNull();
  }

  @Test
  void aSingleStepIsNotSplit() {
    double[] masses = {0.5, 0.5};
    PrivacyLossDistribution step =
        new PrivacyLossDistribution(Discretization.PESSIMISTIC, 1.0, 0, masses, 0, 0);
    assertThat(LargeStepSplit.of(new Composer(1e-300, 1 << 16),
        new Composer.Term(step, 1), 0, 1e-10, 1)).isNull();
  }
}
