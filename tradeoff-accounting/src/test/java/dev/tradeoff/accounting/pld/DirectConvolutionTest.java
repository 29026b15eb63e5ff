package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.ExactReferences;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The direct convolution against the exact k-fold composition of binary randomized response
 * (pure ε0-DP's dominating pair), whose δ(ε) is a binomial sum (Kairouz, Oh and Viswanath 2015),
 * evaluated in log space by {@link ExactReferences#binaryRrDelta}. With ε0 on the grid the
 * discretization is exact, so only rounding separates the two bounds from the truth, and the
 * masses that matter are far below what an FFT resolves (down to 1e-270).
 */
class DirectConvolutionTest {

  private static final double EPS0 = 8;
  private static final int STEPS = 80;
  private static final double INTERVAL = EPS0 / 100;

  /** Binary randomized response with parameter ε0: loss ±ε0 with P-masses p and 1 − p. */
  private static PrivacyLossDistribution randomizedResponse(Discretization bound) {
    double[] masses = new double[201];
    masses[200] = 1 / (1 + Math.exp(-EPS0));
    masses[0] = Math.exp(-EPS0) / (1 + Math.exp(-EPS0));
    return new PrivacyLossDistribution(bound, INTERVAL, -100, masses, 0, 0);
  }

  private static PrivacyLossDistribution composed(Discretization bound, long lo, long hi) {
    return DirectConvolution.compose(
        List.of(new Composer.Term(randomizedResponse(bound), STEPS)), lo, hi, bound, INTERVAL, 0);
  }

  @Test
  void bracketsTheExactBinomialProfileDownToMassesOf1e270() {
    long lo = -100 * STEPS;
    long hi = 100 * STEPS + 1;
    PrivacyLossDistribution upper = composed(Discretization.PESSIMISTIC, lo, hi);
    PrivacyLossDistribution lower = composed(Discretization.OPTIMISTIC, lo, hi);
    SplittableRandom random = new SplittableRandom(80);
    for (int i = 0; i < 200; i++) {
      double epsilon = EPS0 * STEPS * random.nextDouble();
      double exact = ExactReferences.binaryRrDelta(EPS0, STEPS, epsilon);
      String what = "delta(" + epsilon + "), exact " + exact;
      assertThat(upper.delta(epsilon)).as(what).isGreaterThanOrEqualTo(exact * (1 - 1e-12))
          .isLessThanOrEqualTo(exact * (1 + 1e-10));
      assertThat(lower.delta(epsilon)).as(what).isLessThanOrEqualTo(exact * (1 + 1e-12))
          .isGreaterThanOrEqualTo(exact * (1 - 1e-10));
    }
    // The last but one atom, at (k − 2)ε0, holds k p^{k−1}(1 − p) ≈ 2.7e-2; the lowest ones hold
    // (1 − p)^k ≈ 1e-278.
    for (double delta : new double[] {1e-5, 1e-100, 1e-200, 1e-270}) {
      double exact = ExactReferences.epsilon(
          e -> ExactReferences.binaryRrDelta(EPS0, STEPS, e), delta);
      assertThat(upper.epsilon(delta)).as("epsilon(%s)", delta)
          .isGreaterThanOrEqualTo(exact * (1 - 1e-12)).isLessThanOrEqualTo(exact * (1 + 1e-9));
      assertThat(lower.epsilon(delta)).as("epsilon(%s)", delta)
          .isLessThanOrEqualTo(exact * (1 + 1e-12)).isGreaterThanOrEqualTo(exact * (1 - 1e-9));
    }
  }

  @Test
  void aWindowThatCutsTheSumsKeepsBothBoundsValid() {
    // Sums below the window are moved up to it (pessimistic) or dropped (optimistic); sums above
    // go to +infinity or are dropped: the bounds widen but still hold.
    long lo = 20 * STEPS;
    long hi = 60 * STEPS;
    PrivacyLossDistribution upper = composed(Discretization.PESSIMISTIC, lo, hi);
    PrivacyLossDistribution lower = composed(Discretization.OPTIMISTIC, lo, hi);
    for (int j = 0; j <= 40; j++) {
      double epsilon = EPS0 * STEPS * j / 40.0;
      double exact = ExactReferences.binaryRrDelta(EPS0, STEPS, epsilon);
      assertThat(upper.delta(epsilon)).as("delta(%s)", epsilon)
          .isGreaterThanOrEqualTo(exact * (1 - 1e-12));
      assertThat(lower.delta(epsilon)).as("delta(%s)", epsilon)
          .isLessThanOrEqualTo(exact * (1 + 1e-12));
    }
    assertThat(upper.infinityMass()).isPositive();
  }

  @Test
  void refusesWhatWouldTakeTooLong() {
    assertThat(DirectConvolution.compose(
        List.of(new Composer.Term(randomizedResponse(Discretization.PESSIMISTIC), 1L << 40)),
        -100L << 40, (100L << 40) + 1, Discretization.PESSIMISTIC, INTERVAL, 0)).isNull();
  }
}
