package dev.tradeoff.accounting.calibration;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.util.function.DoubleFunction;

/**
 * Generic noise calibration against any {@link Accountant}: the smallest σ such that the
 * accountant reports ε(δ) ≤ the target for the event built from σ (by default k self-composed
 * Gaussians). Assumes ε(δ) is non-increasing in σ, which holds for every accountant here because
 * more noise is a post-processing-equivalent (garbling) of less noise.
 *
 * <p>The search ({@link #calibrate}) keeps the smallest σ the accountant certified (upper end of
 * its ε bracket ≤ the target) and the largest σ it refused (upper end above the target), and
 * stops when the refused one is within the relative tolerance below the certified one. Its steps
 * are secant steps of log ε against log σ (ε of DP-SGD is close to a power of σ there), aimed a
 * quarter of the tolerance above the target's σ, with the probe at σ(1 − tolerance) taken as soon
 * as the secant lands near it — so a PLD calibration usually costs four to six accountings instead
 * of forty bisection steps — and geometric bisection when a secant step would not shrink the
 * interval. It starts from the RDP accountant's σ where that accountant supports the event (a
 * few milliseconds; RDP's ε is above the PLD's, so its σ is near and usually above the answer).
 *
 * <p>Where the accountant brackets the truth (PLD, GDP), the refused σ(1 − tolerance) is also
 * checked against the lower end of its bracket: when that is above the target, no σ at or below
 * it meets the target under any analysis, and the returned σ is certified to be within the
 * tolerance of the smallest σ that truly meets it ({@link Calibration#certified}). When the search
 * stops at a refused σ closer to the answer than that, whose bracket reaches below the target (the
 * bracket of DP-SGD, q = 0.004, 10^5 steps, at δ = 1e-5 is 0.12% wide, and the refusal was 0.35%
 * below σ), one more accounting at σ(1 − tolerance) supplies the certificate.
 */
public final class GaussianCalibrator {

  /** The relative tolerance of {@link #sigma}: the accountant's own threshold to 1e-10. */
  private static final double RELATIVE_WIDTH = 1e-10;

  /** The relative tolerance of {@link #poissonSampledSigma}: 0.5% above the smallest σ. */
  public static final double DP_SGD_TOLERANCE = 0.005;

  private final Accountant accountant;

  /** A calibrator that certifies with the given accountant. */
  public GaussianCalibrator(Accountant accountant) {
    this.accountant = Require.nonNull("accountant", accountant);
  }

  /**
   * A calibrated σ and what certifies it.
   *
   * @param sigma the σ returned: the accountant's ε bracket at it, {@code atSigma}, has its upper
   *     end at most the target
   * @param below a σ at least {@code sigma(1 − tolerance)} that the accountant refused: {@code
   *     atBelow.upper()} is above the target (0 if the search stopped at σ ≤ 1e-12)
   * @param atSigma the ε bracket at {@code sigma}
   * @param atBelow the ε bracket at {@code below} (null if {@code below} is 0)
   */
  public record Calibration(
      double sigma, double below, EpsilonBounds atSigma, EpsilonBounds atBelow) {

    /**
     * Whether no σ ≤ {@link #below} meets the target under any analysis: the lower end of the
     * bracket there is above the target (so the true smallest σ lies in (below, sigma]).
     */
    public boolean certified(double targetEpsilon) {
      return atBelow != null && atBelow.lower() > targetEpsilon;
    }
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
   * DP-SGD noise calibration (the question Opacus's {@code get_noise_multiplier} answers): a noise
   * multiplier σ within {@value #DP_SGD_TOLERANCE} relative above the smallest one such that
   * {@code steps} Poisson-subsampled Gaussian releases with sampling rate q (Abadi et al., "Deep
   * Learning with Differential Privacy", CCS 2016) meet (ε, δ) under add/remove-one neighbouring,
   * per this calibrator's accountant (see {@link #calibrate}; with the PLD accountant the
   * tolerance is usually certified against the truth).
   *
   * @param q the sampling rate in (0, 1]
   * @param steps the number of steps ≥ 1
   */
  public double poissonSampledSigma(
      double q, int steps, double targetEpsilon, double targetDelta) {
    return poissonSampled(q, steps, targetEpsilon, targetDelta).sigma();
  }

  /** {@link #poissonSampledSigma} with its certificate. */
  public Calibration poissonSampled(
      double q, int steps, double targetEpsilon, double targetDelta) {
    Require.that(q > 0 && q <= 1, "q", "must be in (0, 1]", q);
    Require.positive("steps", steps);
    return calibrate(
        s -> new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(s)), steps),
        targetEpsilon,
        targetDelta,
        Neighbouring.ADD_OR_REMOVE_ONE,
        DP_SGD_TOLERANCE);
  }

  /**
   * The smallest σ (rounded up, to 1e-10 relative) such that the event built from σ meets (ε, δ)
   * per the accountant.
   *
   * @param eventOfSigma the event for a noise σ; ε(δ) must be non-increasing in σ
   * @throws IllegalArgumentException if no σ up to 1e12 meets the target
   */
  public double sigma(
      DoubleFunction<DpEvent> eventOfSigma,
      double targetEpsilon,
      double targetDelta,
      Neighbouring relation) {
    return calibrate(eventOfSigma, targetEpsilon, targetDelta, relation, RELATIVE_WIDTH).sigma();
  }

  /**
   * A σ that meets (ε, δ) per the accountant, with σ(1 − tolerance) refused by it (see the class
   * comment for the search and the certificate).
   *
   * @param eventOfSigma the event for a noise σ; ε(δ) must be non-increasing in σ
   * @param tolerance the relative width in [1e-10, 0.5]
   * @throws IllegalArgumentException if no σ up to 1e12 meets the target
   */
  public Calibration calibrate(
      DoubleFunction<DpEvent> eventOfSigma,
      double targetEpsilon,
      double targetDelta,
      Neighbouring relation,
      double tolerance) {
    Require.nonNull("eventOfSigma", eventOfSigma);
    Require.positive("targetEpsilon", targetEpsilon);
    Require.openUnit("targetDelta", targetDelta);
    Require.nonNull("relation", relation);
    Require.inClosedRange("tolerance", tolerance, 1e-10, 0.5);
    Start start = start(eventOfSigma, targetEpsilon, targetDelta, relation);
    return new Search(eventOfSigma, targetEpsilon, targetDelta, relation, tolerance, start.slope())
        .run(start.sigma());
  }

  /**
   * Where the search starts, and the slope of log ε against log σ there (NaN if unknown).
   *
   * @param sigma the first σ to account
   * @param slope d log ε / d log σ of the RDP accountant at that σ, which the search uses for its
   *     first steps (the PLD's curve has nearly the same slope; any error only costs a step)
   */
  private record Start(double sigma, double slope) {}

  /**
   * The RDP accountant's σ (to 1e-3) when this calibrator's accountant is another one and RDP
   * supports the event, with RDP's slope there from a second accounting 2% below; else σ = 1 and
   * no slope.
   */
  private Start start(DoubleFunction<DpEvent> eventOfSigma, double targetEpsilon,
      double targetDelta, Neighbouring relation) {
    Start none = new Start(1, Double.NaN);
    if (accountant.method() == AccountingMethod.RDP) {
      return none;
    }
    RdpAccountant rdp = new RdpAccountant();
    if (!rdp.supports(eventOfSigma.apply(1), relation)) {
      return none;
    }
    try {
      double sigma = new GaussianCalibrator(rdp)
          .new Search(eventOfSigma, targetEpsilon, targetDelta, relation, 1e-3, Double.NaN)
          .run(1).sigma();
      double lower = sigma * 0.98;
      double slope = (Math.log(rdp.account(eventOfSigma.apply(lower), relation).epsilon(targetDelta))
          - Math.log(rdp.account(eventOfSigma.apply(sigma), relation).epsilon(targetDelta)))
          / Math.log(0.98);
      return new Start(sigma, slope < 0 && Double.isFinite(slope) ? slope : Double.NaN);
    } catch (IllegalArgumentException unreachable) {
      return none;
    }
  }

  /** One search: the certified and refused σ found so far. */
  private final class Search {
    private final DoubleFunction<DpEvent> eventOfSigma;
    private final double target;
    private final double delta;
    private final Neighbouring relation;
    private final double tolerance;
    private final double slope;

    private double meet = Double.POSITIVE_INFINITY;
    private EpsilonBounds atMeet;
    private double fail;
    private EpsilonBounds atFail;
    /** log(meet/fail) before the last step inside the interval; +∞ before the first. */
    private double lastWidth = Double.POSITIVE_INFINITY;

    Search(DoubleFunction<DpEvent> eventOfSigma, double target, double delta,
        Neighbouring relation, double tolerance, double slope) {
      this.eventOfSigma = eventOfSigma;
      this.target = target;
      this.delta = delta;
      this.relation = relation;
      this.tolerance = tolerance;
      this.slope = slope;
    }

    Calibration run(double start) {
      double sigma = start;
      boolean certifying = false;
      while (true) {
        EpsilonBounds bounds = accountant.account(eventOfSigma.apply(sigma), relation)
            .epsilonBounds(delta);
        if (bounds.upper() <= target) {
          if (sigma < meet) {
            meet = sigma;
            atMeet = bounds;
          }
        } else if (sigma > fail || certifying && bounds.lower() > target) {
          fail = sigma;
          atFail = bounds;
        } else if (certifying) {
          // σ(1 − tolerance) is refused but not certified either: keep the closer refusal.
          return new Calibration(meet, fail, atMeet, atFail);
        }
        certifying = false;
        if (meet < Double.POSITIVE_INFINITY && (fail >= meet * (1 - tolerance) || meet <= 1e-12)) {
          double probe = meet * (1 - tolerance);
          if (meet > 1e-12 && fail > probe && atFail.lower() > 0 && atFail.lower() <= target) {
            // The refusal is too close to σ for its bracket's lower end to certify a miss; the
            // bracket at σ(1 − tolerance), further from the threshold, usually does.
            certifying = true;
            sigma = probe;
            continue;
          }
          return new Calibration(meet, fail, atMeet, atFail);
        }
        if (fail > 1e12) {
          throw new IllegalArgumentException(
              "targetEpsilon must be reachable with sigma <= 1e12 under "
                  + accountant.method().cliName() + ", but was " + target);
        }
        sigma = next();
      }
    }

    /** The next σ to account. */
    private double next() {
      if (meet == Double.POSITIVE_INFINITY) {
        double aimed = along(fail, atFail);
        return aimed > 0 ? Math.min(4 * fail, Math.max(1.01 * fail, aimed)) : 2 * fail;
      }
      if (fail == 0) {
        double aimed = along(meet, atMeet);
        double probe = meet * (1 - tolerance);
        if (!(aimed > 0)) {
          return meet / 1.15;
        }
        return aimed >= probe * (1 - tolerance) ? probe : Math.max(meet / 2, aimed);
      }
      double width = Math.log(meet / fail);
      boolean slow = width > 0.5 * lastWidth;
      lastWidth = width;
      double middle = Math.sqrt(fail) * Math.sqrt(meet);
      if (slow) {
        return middle; // the last secant step did not halve the interval: bisect
      }
      double probe = meet * (1 - tolerance);
      double aimed = secant(middle);
      if (aimed >= probe * (1 - tolerance)) {
        return probe;
      }
      // Keep every step inside the interval and shrinking it by a twentieth at least.
      double low = fail * Math.pow(meet / fail, 0.05);
      double high = fail * Math.pow(meet / fail, 0.95);
      return Math.min(high, Math.max(low, aimed));
    }

    /**
     * The σ where the line of the start's slope through one known point (log σ, log ε) meets the
     * target, a quarter of the tolerance up; 0 if there is no slope or the point has no finite
     * positive ε.
     */
    private double along(double sigma, EpsilonBounds at) {
      if (Double.isNaN(slope) || at == null || !(at.upper() > 0)
          || !Double.isFinite(at.upper())) {
        return 0;
      }
      double aimed = sigma * Math.exp((Math.log(target) - Math.log(at.upper())) / slope)
          * (1 + tolerance / 4);
      return Double.isFinite(aimed) ? aimed : 0;
    }

    /**
     * The σ where the line through the two known points (log σ, log ε) meets the target, a
     * quarter of the tolerance up; {@code fallback} if the points do not give a decreasing line.
     */
    private double secant(double fallback) {
      EpsilonBounds a = atMeet;
      EpsilonBounds b = atFail;
      if (a == null || b == null || !(a.upper() > 0) || !Double.isFinite(b.upper())) {
        return fallback;
      }
      double slope = (Math.log(a.upper()) - Math.log(b.upper())) / (Math.log(meet) - Math.log(fail));
      if (!(slope < 0) || !Double.isFinite(slope)) {
        return fallback;
      }
      double logSigma = Math.log(fail) + (Math.log(target) - Math.log(b.upper())) / slope;
      double aimed = Math.exp(logSigma) * (1 + tolerance / 4);
      return Double.isFinite(aimed) && aimed > 0 ? aimed : fallback;
    }
  }
}
