package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import org.junit.jupiter.api.Test;

/**
 * The two DP-SGD cases of issue 20 whose default brackets were wide at small δ, now at most 0.5%
 * wide (relative to the upper end) and consistent with references computed outside this library.
 *
 * <ul>
 *   <li>σ = 0.5, q = 1e-4, 10^5 steps at δ = 1e-10 (was [4.30, 5.92]): Google's dp_accounting
 *       0.6.0 (github.com/google/differential-privacy, commit b5b0286e), run from source by {@code
 *       src/test/python/dp_accounting_small_delta.py} at interval 1e-5, gives 5.965498 with its
 *       pessimistic PLD (connect the dots) and 5.483055 with its optimistic one (rounding down):
 *       bounds up to that library's floating-point error, so our lower end must not exceed the
 *       first and our upper end must not fall below the second.
 *   <li>σ = 1.74, q = 1.57e-4, 594 steps at δ = 1e-15 (was [0.01385, 0.0328]): dp_accounting's
 *       own values there (0.017388 pessimistic, 0.017087 optimistic at interval 1e-6) lie below the
 *       proven lower bound below, so they are not upper bounds at this δ and are not used. The
 *       references come from {@code src/test/python/direct_convolution_reference.py}: a direct
 *       (FFT-free, so relatively accurate) convolution of the remove direction's per-step loss,
 *       its P-mass per bin [iΔ, (i + 1)Δ) computed from log Φ differences and put at iΔ (rounding
 *       down: the true pair dominates it) or at (i + 1)Δ (rounding up: it dominates the true
 *       pair), Δ = 1e-6, masses scaled by 1 ∓ 1e-9 at every step against the floating-point
 *       error; numpy 1.24, scipy 1.10. Rounded down, δ(0.0180) = 1.22e-15 &gt; 1e-15, so the true
 *       ε(1e-15) exceeds 0.0180; rounded up, δ(0.0190) = 4.73e-16 &lt; 1e-15, so the remove
 *       direction's is below 0.0190 (the add direction's is smaller: its loss is at most
 *       −log(1 − q) per step, and the accountant puts it at 0.01494).
 * </ul>
 */
class PldSmallDeltaTest {

  private static final PldAccountant DEFAULT = new PldAccountant();

  private static EpsilonBounds bounds(double sigma, double q, int steps, double delta) {
    DpEvent event =
        new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
    EpsilonBounds bounds = DEFAULT.epsilonBounds(event, ADD_OR_REMOVE_ONE, delta);
    assertThat(bounds.upper()).as("%s", bounds).isFinite();
    assertThat(bounds.gap()).as("%s", bounds).isLessThanOrEqualTo(0.005 * bounds.upper());
    return bounds;
  }

  @Test
  void aSampledGaussianWhoseRateIsTheGridSpacingIsBracketedWithinHalfAPercentAtDelta1e10() {
    EpsilonBounds bounds = bounds(0.5, 1e-4, 100_000, 1e-10);
    assertThat(bounds.lower()).as("%s", bounds).isLessThanOrEqualTo(5.965498315762437);
    assertThat(bounds.upper()).as("%s", bounds).isGreaterThanOrEqualTo(5.483055233850299);
  }

  /**
   * The same DP-SGD case at δ = 1e-20, where its tail is made of single steps with a huge loss
   * (bracketed by {@link LargeStepSplit}; it was [0.02770, 0.02908]). The same direct-convolution
   * reference at Δ = 2e-6 (numpy 2.4, scipy 1.17): rounded down, δ(0.0280) = 1.106e-20 &gt; 1e-20,
   * so the true ε(1e-20) exceeds 0.0280; rounded up, δ(0.0296) = 8.56e-21 &lt; 1e-20, so the
   * remove direction's is below 0.0296 (the add direction's is below 0.018 here).
   */
  @Test
  void smallRateDpSgdIsBracketedWithinHalfAPercentAtDelta1e20() {
    EpsilonBounds bounds = bounds(1.74, 1.57e-4, 594, 1e-20);
    assertThat(bounds.lower()).as("%s", bounds).isLessThanOrEqualTo(0.0296);
    assertThat(bounds.upper()).as("%s", bounds).isGreaterThanOrEqualTo(0.0280);
  }

  @Test
  void smallEpsilonDpSgdIsBracketedWithinHalfAPercentAtDelta1e15() {
    EpsilonBounds bounds = bounds(1.74, 1.57e-4, 594, 1e-15);
    assertThat(bounds.lower()).as("%s", bounds).isLessThanOrEqualTo(0.0190);
    assertThat(bounds.upper()).as("%s", bounds).isGreaterThanOrEqualTo(0.0180);
  }

  /**
   * DP-SGD σ = 1.556, q = 1e-5, 443 steps at δ = 1e-12 (issue 20; it was [8.903e-4, 2.7504e-3],
   * looser at its upper end than the δ = 1e-15 answer's 2.2156e-3, which bounds ε(1e-12) too). On
   * the refined grid Δ = 3.125e-6 one direction is certified at 9.2447e-4 by direct convolution,
   * while the other's full value stays at its plain bound 0.0171 (no tilted transform resolves
   * it and its direct convolution exceeds the work limit); its screen, resolved on the coarser
   * grid, bounds it by 0.0013137, and each direction now takes the smaller of its two valid upper
   * bounds. The bracket is still 32% wide, not yet within the 0.5% goal: the error-free solutions
   * on finer grids settle at 9.141e-4, where no refinement certifies them.
   */
  @Test
  void smallRateDpSgdAtDelta1e12TakesTheScreenWhereTheFullValueIsUnresolved() {
    DpEvent event =
        new SelfComposedEvent(new PoissonSampledEvent(1e-5, new GaussianEvent(1.556)), 443);
    EpsilonBounds bounds = DEFAULT.epsilonBounds(event, ADD_OR_REMOVE_ONE, 1e-12);
    assertThat(bounds.upper()).as("%s", bounds).isLessThanOrEqualTo(0.00132);
    assertThat(bounds.lower()).as("%s", bounds).isGreaterThan(8.9e-4);
  }
}
