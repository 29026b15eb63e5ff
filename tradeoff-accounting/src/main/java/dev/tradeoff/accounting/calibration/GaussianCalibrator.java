package dev.tradeoff.accounting.calibration;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import java.util.function.DoubleFunction;

/**
 * Generic noise calibration against any {@link Accountant}: the smallest σ such that the
 * accountant reports ε(δ) ≤ the target for the event built from σ (by default k self-composed
 * Gaussians). Assumes ε(δ) is non-increasing in σ, which holds for every accountant here because
 * more noise is a post-processing-equivalent (garbling) of less noise. Bisection in σ to a relative
 * width of 1e−10, returning the upper end: the returned σ is one the accountant itself certified, so
 * it provably meets the target according to that accountant (and is at most 1e−10 relative above the
 * accountant's exact threshold).
 */
public final class GaussianCalibrator {

  private static final double RELATIVE_WIDTH = 1e-10;

  private final Accountant accountant;

  /** A calibrator that certifies with the given accountant. */
  public GaussianCalibrator(Accountant accountant) {
    this.accountant = Require.nonNull("accountant", accountant);
  }

  /**
   * The smallest σ (rounded up) such that k Gaussian releases of sensitivity 1 meet (ε, δ).
   *
   * @param count k ≥ 1
   * @param targetEpsilon ε &gt; 0
   * @param targetDelta δ in (0, 1)
   */
  public double sigma(int count, double targetEpsilon, double targetDelta, Neighbouring relation) {
    Require.positive("count", count);
    return sigma(
        s -> new SelfComposedEvent(new GaussianEvent(s), count),
        targetEpsilon,
        targetDelta,
        relation);
  }

  /**
   * DP-SGD noise calibration (the question Opacus's {@code get_noise_multiplier} answers): the
   * smallest noise multiplier σ (rounded up) such that {@code steps} Poisson-subsampled Gaussian
   * releases with sampling rate q (Abadi et al., "Deep Learning with Differential Privacy", CCS
   * 2016) meet (ε, δ) under add/remove-one neighbouring, per this calibrator's accountant.
   *
   * @param q the sampling rate in (0, 1]
   * @param steps the number of steps ≥ 1
   */
  public double poissonSampledSigma(
      double q, int steps, double targetEpsilon, double targetDelta) {
    Require.that(q > 0 && q <= 1, "q", "must be in (0, 1]", q);
    Require.positive("steps", steps);
    return sigma(
        s -> new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(s)), steps),
        targetEpsilon,
        targetDelta,
        Neighbouring.ADD_OR_REMOVE_ONE);
  }

  /**
   * The smallest σ (rounded up) such that the event built from σ meets (ε, δ) per the accountant.
   *
   * @param eventOfSigma the event for a noise σ; ε(δ) must be non-increasing in σ
   * @throws IllegalArgumentException if no σ up to 1e12 meets the target
   */
  public double sigma(
      DoubleFunction<DpEvent> eventOfSigma,
      double targetEpsilon,
      double targetDelta,
      Neighbouring relation) {
    Require.nonNull("eventOfSigma", eventOfSigma);
    Require.positive("targetEpsilon", targetEpsilon);
    Require.openUnit("targetDelta", targetDelta);
    Require.nonNull("relation", relation);
    double hi = 1;
    while (!meets(eventOfSigma, hi, targetEpsilon, targetDelta, relation)) {
      hi *= 2;
      if (hi > 1e12) {
        throw new IllegalArgumentException(
            "targetEpsilon must be reachable with sigma <= 1e12 under "
                + accountant.method().cliName()
                + ", but was "
                + targetEpsilon);
      }
    }
    double lo = hi / 2;
    while (lo > 1e-12 && meets(eventOfSigma, lo, targetEpsilon, targetDelta, relation)) {
      hi = lo;
      lo /= 2;
    }
    while (hi - lo > RELATIVE_WIDTH * hi) {
      double mid = lo + (hi - lo) / 2;
      if (meets(eventOfSigma, mid, targetEpsilon, targetDelta, relation)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private boolean meets(
      DoubleFunction<DpEvent> eventOfSigma,
      double sigma,
      double epsilon,
      double delta,
      Neighbouring relation) {
    return accountant.account(eventOfSigma.apply(sigma), relation).epsilon(delta) <= epsilon;
  }
}
