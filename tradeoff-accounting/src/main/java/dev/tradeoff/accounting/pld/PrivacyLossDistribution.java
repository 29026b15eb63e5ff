package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.internal.Require;

/**
 * A discretized privacy loss distribution (Sommer, Meiser and Mohammadi 2019; Koskela, Jälkö and
 * Honkela 2020): the law of the loss L = log(dP/dQ) under P for a dominating pair (P, Q), on the
 * grid {iΔ}, with the mass at L = +∞ kept apart. Its hockey-stick curve is
 *
 * <pre>  δ(ε) = Pr[L = ∞] + Σ_{iΔ > ε} Pr[L = iΔ]·(1 − e^{ε − iΔ}).</pre>
 *
 * <p>A {@link Discretization#PESSIMISTIC} distribution returns upper bounds on the true δ(ε) and ε(δ);
 * an {@link Discretization#OPTIMISTIC} one lower bounds. Every numerical error bound (quadrature
 * margin, FFT round-off, aliasing, summation) is folded into the bound in its safe direction: for a
 * pessimistic distribution it is part of {@link #infinityMass()}, for an optimistic one it is the
 * {@link #deficit()} subtracted from δ. Summation of n terms is widened by the factor 1 + 2nu.
 *
 * <p>Instances are immutable.
 */
public final class PrivacyLossDistribution {

  private final Discretization discretization;
  private final double interval;
  private final long offset;
  private final double[] masses;
  private final double infinityMass;
  private final double deficit;
  private final RoundOff roundOff;
  private final Refinement refinement;

  /**
   * Recomputations of a composed distribution by an exponentially tilted transform, each aimed at
   * one part of the upper tail, where its round-off bound is relative rather than absolute (see
   * {@link Composer}). The aim comes from the question asked: the δ of an ε(δ) query, the ε of a
   * δ(ε) query. Implementations cache what they compute.
   */
  interface Refinement {
    /** The distribution with the masses around the upper quantile of P-mass {@code tail} recomputed. */
    PrivacyLossDistribution forTail(double tail);

    /**
     * The distribution with the masses around and above the loss {@code loss} recomputed, for a
     * question whose answer is a δ of about {@code resolve} (0 if unknown): the transform may
     * then fold more of its tilted law into its window, as long as the error that adds near the
     * loss stays a negligible share of that δ (see {@link Composer}).
     */
    PrivacyLossDistribution atLoss(double loss, double resolve);

    /**
     * The composition by direct convolution, whose rounding is relative to each mass (see {@link
     * DirectConvolution}), or null where that would take too long.
     */
    PrivacyLossDistribution direct();

    /**
     * Bounds on δ(ε) from the split of a self-composition by its number of large steps (see
     * {@link LargeStepSplit}), for a question at δ whose answer is expected near the loss {@code
     * aim}; null where it does not apply.
     */
    LargeStepSplit split(double delta, double aim);
  }

  /**
   * A bound on the round-off of the masses of a composition over its window [start, end) of grid
   * indices (masses trimmed as zero included): Σ_{g ≥ g₁} |error at g| ≤ √(n₁)·{@code plainL2}
   * over the n₁ indices in [g₁, {@code tiltFrom}) (Cauchy–Schwarz on an ℓ₂ bound) plus, on
   * [{@code tiltFrom}, {@code tiltTo}), where the masses come from an exponentially tilted
   * transform, e^{a − θg₂} for the errors at g ≥ g₂ ({@code a = tiltLog}: the tilted ℓ₂ bound over
   * √(1 − e^{−2θ}) plus the tilted mass folded into the tilted window, scaled back; θ = {@code
   * tiltRate} per grid index), plus the plain bound again over the indices from {@code tiltTo} on.
   */
  record RoundOff(double plainL2, long tiltFrom, long tiltTo, double tiltRate, double tiltLog,
      long start, long end) {
    static final RoundOff NONE = new RoundOff(
        0, Long.MAX_VALUE, Long.MAX_VALUE, 0, Double.NEGATIVE_INFINITY, 0, 0);

    /** The bound on the summed absolute error of the masses at grid indices ≥ first. */
    double above(double firstIndex) {
      if (plainL2 == 0 && tiltRate == 0) {
        return 0;
      }
      long first = (long) Math.max(start, Math.min(end, firstIndex));
      double bound = 0;
      long plainEnd = Math.min(end, tiltFrom);
      if (plainEnd > first) {
        bound += Math.sqrt((double) (plainEnd - first)) * plainL2;
      }
      if (tiltRate > 0) {
        long from = Math.max(first, tiltFrom);
        long to = Math.min(end, tiltTo);
        if (to > from) {
          // 1.001: the exponent carries a relative error of order u·|θg|, far below 1e-3. The
          // untilted masses are formed by exp, which may underflow: at most the smallest
          // subnormal is lost per mass.
          bound += 1.001 * Math.exp(tiltLog - tiltRate * from) + (to - from) * Double.MIN_VALUE;
        }
        // Above the tilted transform's window the masses are the plain ones.
        long plainAgain = Math.max(first, to);
        if (end > plainAgain) {
          bound += Math.sqrt((double) (end - plainAgain)) * plainL2;
        }
      }
      return bound;
    }
  }

  PrivacyLossDistribution(
      Discretization discretization,
      double interval,
      long offset,
      double[] masses,
      double infinityMass,
      double deficit) {
    this(discretization, interval, offset, masses, infinityMass, deficit, RoundOff.NONE, null);
  }

  PrivacyLossDistribution(
      Discretization discretization,
      double interval,
      long offset,
      double[] masses,
      double infinityMass,
      double deficit,
      RoundOff roundOff,
      Refinement refinement) {
    this.discretization = discretization;
    this.interval = interval;
    this.offset = offset;
    this.masses = masses;
    this.infinityMass = Math.min(1, infinityMass);
    this.deficit = deficit;
    this.roundOff = roundOff;
    this.refinement = refinement;
  }

  /**
   * The tighter of two valid bounds on the same side: both the plain and the refined value bound
   * the truth, and for a degenerate law (a point mass, where the tilt rate is tiny) the refined
   * round-off bound can be the looser one.
   */
  private double tighter(double plain, double refined) {
    return discretization == Discretization.PESSIMISTIC
        ? Math.min(plain, refined) : Math.max(plain, refined);
  }

  /** Whether the round-off bound above ε is a material part (over 1e-3) of an answer value. */
  private boolean roundOffMatters(double epsilon, double value) {
    return refinement != null && !(roundOffAbove(epsilon) <= 1e-3 * value);
  }

  /** The round-off bound of the masses at losses above ε (0 for a single discretized mechanism). */
  double roundOffAbove(double epsilon) {
    return roundOff.above(Math.floor(epsilon / interval) + 1);
  }

  /**
   * The round-off bound of the masses at and above the grid point at or below ε: whether an
   * error-free solution ε can be trusted. The masses it rests on lie above ε, but a solution just
   * below a grid point rounds to it (δ far below the mass there), and a mass made of round-off
   * alone, such as one at the top of the window, must count.
   */
  private double roundOffNear(double epsilon) {
    return roundOff.above(Math.floor(epsilon / interval));
  }

  /** Which bound this distribution gives. */
  public Discretization discretization() {
    return discretization;
  }

  /** The grid spacing Δ of the losses. */
  public double interval() {
    return interval;
  }

  /**
   * Pr[L = +∞]; for a pessimistic distribution this includes the truncated upper tail and all
   * numerical error bounds.
   */
  public double infinityMass() {
    return infinityMass;
  }

  /** The amount an optimistic distribution subtracts from δ to cover numerical error (0 if none). */
  public double deficit() {
    return deficit;
  }

  /** The number of grid points stored. */
  public int size() {
    return masses.length;
  }

  /** The smallest loss on the stored grid. */
  public double lowestLoss() {
    return offset * interval;
  }

  /** The largest loss on the stored grid. */
  public double highestLoss() {
    return (offset + masses.length - 1) * interval;
  }

  /** Σ Pr[L = iΔ] over the finite grid. */
  public double finiteMass() {
    double sum = 0;
    for (double m : masses) {
      sum += m;
    }
    return sum;
  }

  long offset() {
    return offset;
  }

  RoundOff roundOff() {
    return roundOff;
  }

  Refinement refinement() {
    return refinement;
  }

  double massAt(int index) {
    return masses[index];
  }

  double[] massesView() {
    return masses;
  }

  private double widening() {
    return 1 + 2.0 * masses.length * Fft.UNIT_ROUNDOFF;
  }

  /**
   * δ(ε) of this distribution: an upper bound on the true δ(ε) if pessimistic, a lower bound if
   * optimistic.
   *
   * @param epsilon ε ≥ 0
   */
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    double value = plainDelta(epsilon);
    if (!roundOffMatters(epsilon, value)) {
      return value;
    }
    PrivacyLossDistribution aimed = refinement.atLoss(epsilon, 0);
    value = tighter(value, aimed.delta(epsilon));
    return aimed.roundOffAbove(epsilon) <= 1e-3 * value
        ? value : tighterDirect(value, epsilon, true);
  }

  /**
   * The value tightened by the direct convolution where there is one: the last resort where the
   * tilted transforms leave a material round-off bound (a tail dominated by single steps with a
   * huge loss, whose Chernoff bound lies far above it).
   */
  private double tighterDirect(double value, double argument, boolean deltaOfEpsilon) {
    PrivacyLossDistribution direct = refinement.direct();
    if (direct == null) {
      return value;
    }
    return tighter(value, deltaOfEpsilon ? direct.delta(argument) : direct.epsilon(argument));
  }

  /**
   * δ(ε) with the round-off bound of the plain transform, without the tilted refinement: a valid
   * bound on the same side as {@link #delta}, possibly looser, and cheap (one pass).
   */
  double plainDelta(double epsilon) {
    double sum = hockeyStickSum(epsilon);
    double error = roundOffAbove(epsilon);
    double value;
    if (discretization == Discretization.PESSIMISTIC) {
      value = infinityMass + sum * widening() + error;
    } else {
      value = Math.max(0, infinityMass + sum / widening() - deficit - error);
    }
    return Math.min(1, value);
  }

  /** Σ_{iΔ > ε} m_i (1 − e^{ε − iΔ}), each term computed with expm1. */
  private double hockeyStickSum(double epsilon) {
    // In double: ε/Δ may exceed the range of long, and a saturated cast would wrap below.
    double first = Math.floor(epsilon / interval) + 1 - offset;
    if (first >= masses.length) {
      return 0;
    }
    double sum = 0;
    for (int i = (int) Math.max(0, first); i < masses.length; i++) {
      double loss = (offset + i) * interval;
      if (loss > epsilon) {
        sum -= masses[i] * Math.expm1(epsilon - loss);
      }
    }
    return sum;
  }

  /**
   * The smallest ε ≥ 0 at which this distribution's δ(ε) is at most δ, computed in one pass over the
   * grid: on [iΔ, (i+1)Δ] the hockey-stick sum is A − e^{ε−iΔ}E with A = Σ_{j>i} m_j and
   * E = Σ_{j>i} m_j e^{iΔ − jΔ}, so the crossing is solved in closed form. A pessimistic
   * distribution rounds the result up (its δ at the returned ε is ≤ δ, checked), an optimistic one
   * rounds it down. Returns +∞ if Pr[L = ∞] alone exceeds δ.
   *
   * @param delta δ in [0, 1)
   */
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    double value = plainEpsilon(delta);
    if (refinement == null) {
      return value;
    }
    // Where the round-off bound above the error-free solution is material, the masses there are
    // recomputed by a transform tilted towards the tail δ (the error-free solution lies below the
    // pessimistic answer, where the bound is larger: a conservative test).
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;
    double guess = solve(delta, pessimistic, false);
    double at = Double.isFinite(guess) ? Math.max(guess, lowestLoss()) : lowestLoss();
    if (roundOffNear(at) <= 1e-3 * delta) {
      return value;
    }
    // One transform tilted at the loss the error-free solution points to is usually enough: the
    // plain masses locate the answer well even where their round-off bound is too loose to
    // certify it. If that transform's own bound is still material there (the plain masses were
    // too noisy to aim with), a first transform is tilted at the Chernoff quantile of δ, which
    // can lie well above the answer, and a second at the loss its error-free solution points to.
    if (Double.isFinite(guess)) {
      PrivacyLossDistribution aimed = refinement.atLoss(at, delta);
      value = tighter(value, aimed.epsilon(delta));
      double check = aimed.solve(delta, pessimistic, false);
      if (Double.isFinite(check)
          && aimed.roundOffNear(Math.max(check, lowestLoss())) <= 1e-3 * delta) {
        return value;
      }
    }
    PrivacyLossDistribution first = refinement.forTail(delta);
    value = tighter(value, first.epsilon(delta));
    double aim = first.solve(delta, pessimistic, false);
    PrivacyLossDistribution last = first;
    if (Double.isFinite(aim)) {
      last = refinement.atLoss(Math.max(aim, lowestLoss()), delta);
      value = tighter(value, last.epsilon(delta));
    }
    double settled = last.solve(delta, pessimistic, false);
    if (Double.isFinite(settled)
        && last.roundOffNear(Math.max(settled, lowestLoss())) <= 1e-3 * delta) {
      return value;
    }
    value = tighterDirect(value, delta, false);
    double expected = Double.isFinite(settled) ? settled : Double.isFinite(aim) ? aim : guess;
    return tighterSplit(value, delta, Math.max(expected, lowestLoss()));
  }

  /**
   * ε(δ) tightened by the split of a self-composition by its number of large steps ({@link
   * LargeStepSplit}), where there is one: bisection on that split's bound on δ(ε). A pessimistic
   * answer is the smallest ε found whose upper bound on δ(ε) is at most δ (so δ(ε) ≤ δ there, and
   * the true ε(δ) is at most ε), an optimistic one the largest ε found whose lower bound exceeds δ
   * (so δ(ε) > δ, and since δ(·) is non-increasing the true ε(δ) is at least ε); only evaluated
   * points are returned.
   */
  private double tighterSplit(double value, double delta, double aim) {
    if (!Double.isFinite(aim)) {
      return value;
    }
    LargeStepSplit split = refinement.split(delta, aim);
    if (split == null) {
      return value;
    }
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;
    // A point on each side of the crossing, starting from the known value and the aim: the split's
    // bound exceeds δ at below (checked before it is returned) and is at most δ at above.
    double below = pessimistic ? 0 : Math.max(value, 0);
    double above = Math.max(aim, interval);
    if (pessimistic && Double.isFinite(value) && value < above) {
      above = value;
    }
    if (!pessimistic && !(split.delta(below) > delta)) {
      return value; // the known lower bound is not confirmed: nothing to add
    }
    int steps = 0;
    while (!(split.delta(above) <= delta)) {
      if (++steps > 64 || !Double.isFinite(above)) {
        return value;
      }
      below = Math.max(below, above);
      above *= 2;
    }
    if (pessimistic && split.delta(below) <= delta) {
      return tighter(value, below);
    }
    while (above - below > 1e-7 * above && steps++ < 200) {
      double mid = 0.5 * (below + above);
      if (split.delta(mid) <= delta) {
        above = mid;
      } else {
        below = mid;
      }
    }
    return tighter(value, pessimistic ? above : below);
  }

  /**
   * ε(δ) with the round-off bound of the plain transform, without the tilted refinement: a valid
   * bound on the same side as {@link #epsilon}, possibly looser, and cheap (one pass).
   */
  double plainEpsilon(double delta) {
    boolean pessimistic = discretization == Discretization.PESSIMISTIC;
    if (plainDelta(0) <= delta) {
      return 0;
    }
    double solution = solve(delta, pessimistic, true);
    if (solution == Double.POSITIVE_INFINITY) {
      return solution;
    }
    solution = Math.max(0, solution);
    return pessimistic ? roundUp(solution, delta) : roundDown(solution, delta);
  }

  /** What the plain hockey-stick sum S(ε) is compared with, given the round-off bound there. */
  private double target(double delta, boolean pessimistic, double error) {
    return pessimistic
        ? (delta - infinityMass - error) / widening()
        : (delta + deficit + error - infinityMass) * widening();
  }

  /**
   * The supremum of the ε at which this distribution's bound on δ(ε) exceeds δ (+∞ if it does for
   * every ε), in one pass over the grid from the top. That supremum is an upper bound on the true
   * ε(δ) for a pessimistic distribution and a lower bound for an optimistic one, whether or not
   * the bound is monotone: the true δ(·) is non-increasing, so it is at most δ beyond ε(δ).
   *
   * <p>On [iΔ, (i+1)Δ) the hockey-stick sum is A − e^{ε−iΔ}E with A = Σ_{j>i} m_j and
   * E = Σ_{j>i} m_j e^{iΔ − jΔ}, and the round-off bound of the masses above ε is constant, so the
   * crossing is solved in closed form bin by bin; with {@code withRoundOff} false the round-off
   * bound is left out (an estimate, used only to decide where to refine).
   */
  private double solve(double delta, boolean pessimistic, boolean withRoundOff) {
    long top = offset + masses.length - 1;
    boolean hasRoundOff = withRoundOff && !(roundOff.plainL2 == 0 && roundOff.tiltRate == 0);
    // Above the top grid point the sum is 0 and only Pr[L = ∞] and the round-off remain.
    if (pessimistic) {
      if (infinityMass > delta) {
        return Double.POSITIVE_INFINITY;
      }
      if (hasRoundOff && infinityMass + roundOff.above(top + 1) > delta) {
        // On [(g−1)Δ, gΔ) the bound is Pr[L = ∞] + R(g), non-increasing in g, and R(end) = 0.
        long lo = top + 1;
        long hi = Math.max(lo + 1, roundOff.end + 1);
        while (hi - lo > 1) {
          long mid = lo + (hi - lo) / 2;
          if (infinityMass + roundOff.above(mid) > delta) {
            lo = mid;
          } else {
            hi = mid;
          }
        }
        return lo * interval;
      }
    } else if (infinityMass - deficit > delta) {
      return Double.POSITIVE_INFINITY;
    }
    double decay = Math.exp(-interval);
    double above = 0; // A: Σ_{j > i} m_j
    double weighted = 0; // E: Σ_{j > i} m_j e^{iΔ − jΔ}
    // A floor under the targets of the bins from here down to a checkpoint index: a bin whose sum
    // is at most it has no crossing, and its own round-off bound need not be evaluated. For a
    // pessimistic bound the target falls as the round-off bound grows, and the bound grows as the
    // index falls, so the target at the checkpoint's bound is the floor; it is renewed every
    // FLOOR_SPAN bins (one bound per span instead of one per bin: below a tilted transform's
    // part the plain bound of the whole window is far above δ, and a floor taken there would
    // skip nothing). For an optimistic bound the target grows with the error, and 0 serves.
    boolean pessimisticRoundOff = hasRoundOff && pessimistic;
    long checkpoint = Long.MAX_VALUE;
    double floorTarget = target(delta, pessimistic, 0);
    for (int i = masses.length - 1; i >= 0; i--) {
      // Move the reference point from (i+1)Δ to iΔ, adding m_{i+1}.
      if (i + 1 < masses.length) {
        above += masses[i + 1];
        weighted = (weighted + masses[i + 1]) * decay;
      }
      if (pessimisticRoundOff && offset + i + 1 < checkpoint) {
        checkpoint = offset + i + 1 - FLOOR_SPAN;
        floorTarget = target(delta, true, roundOff.above(checkpoint));
      }
      if (floorTarget >= 0 && above - weighted <= floorTarget) {
        continue;
      }
      double error = hasRoundOff ? roundOff.above(offset + i + 1) : 0;
      double target = target(delta, pessimistic, error);
      if (!(target >= 0)) {
        return (offset + i + 1) * interval;
      }
      double atGrid = above - weighted;
      if (atGrid > target) {
        // The crossing lies in [iΔ, (i+1)Δ]; the bound matters when E underflows (huge Δ).
        return Math.min(
            (offset + i) * interval + Math.log((above - target) / weighted),
            (offset + i + 1) * interval);
      }
    }
    // Below the lowest grid point: all masses are above ε (and the round-off of any trimmed ones).
    double error = hasRoundOff ? roundOff.above(Double.NEGATIVE_INFINITY) : 0;
    double target = target(delta, pessimistic, error);
    if (!(target >= 0)) {
      return offset * interval;
    }
    above += masses[0];
    weighted = (weighted + masses[0]) * decay;
    return Math.min(
        (offset - 1) * interval + Math.log((above - target) / weighted), offset * interval);
  }

  /** Bins between the checkpoints of {@link #solve}'s floor on the targets. */
  private static final int FLOOR_SPAN = 1024;

  private double roundUp(double epsilon, double delta) {
    double step = 1e-12 * Math.max(1, Math.abs(epsilon));
    double candidate = epsilon + step;
    for (int i = 0; i < 200 && plainDelta(candidate) > delta; i++) {
      step *= 2;
      candidate = epsilon + step;
    }
    return candidate;
  }

  private double roundDown(double epsilon, double delta) {
    double step = 1e-12 * Math.max(1, Math.abs(epsilon));
    double candidate = Math.max(0, epsilon - step);
    for (int i = 0; i < 200 && candidate > 0 && plainDelta(candidate) <= delta; i++) {
      step *= 2;
      candidate = Math.max(0, epsilon - step);
    }
    return candidate;
  }

  @Override
  public String toString() {
    return "PrivacyLossDistribution["
        + discretization
        + ", interval="
        + interval
        + ", losses=["
        + lowestLoss()
        + ", "
        + highestLoss()
        + "], infinityMass="
        + infinityMass
        + "]";
  }
}
