package dev.tradeoff.accounting.pld;

/**
 * Puts a {@link LossModel} on the loss grid {iΔ}.
 *
 * <p>Pessimistic (connect the dots, Doroshenko et al., PETS 2022): the P-mass of the loss values
 * in each bin [iΔ, (i+1)Δ] is split between the two grid points so that both the P-mass and the
 * Q-mass are preserved; for a loss value l the share of the upper point is
 * w(l) = (1 − e^{iΔ−l})/(1 − e^{−Δ}). Splitting an atom into two atoms is the inverse of a
 * post-processing, so the discrete pair dominates the true pair for every hockey-stick order and
 * δ(ε) is exact at grid points and an upper bound between them. The shares are integrated by
 * 4-point Gauss–Legendre quadrature over the x-preimage of the bin (pieces no wider than scale/64,
 * relative error far below 1e−15); as a safety margin a relative {@value #MARGIN} of every bin is
 * moved up and added, which only increases δ.
 *
 * <p>Tails: x outside the quantile range of the tail mass τ is not integrated; its P-mass (computed
 * from the distribution functions) goes to +∞ (upper loss tail) or up to a grid point above every
 * loss in it (lower tail). Optimistic: everything is rounded down to the grid, the upper tail goes
 * to the highest grid point below it and the lower tail is dropped.
 */
final class Discretizer {

  /** Relative safety margin applied to every split (see class Javadoc). */
  static final double MARGIN = 1e-10;

  /**
   * The largest grid index magnitude (2^50): the accountant coarsens Δ until every loss, and every
   * sum of losses over the composition, is at most this many intervals from 0, so that grid indices
   * and their sums are exact in both {@code long} and {@code double}.
   */
  static final double MAX_INDEX = 0x1p50;

  private static final double[] NODES = {
    -0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526
  };
  private static final double[] WEIGHTS = {
    0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538
  };

  private final double interval;
  private final double tailMass;
  private final Discretization discretization;

  Discretizer(double interval, double tailMass, Discretization discretization) {
    this.interval = interval;
    this.tailMass = tailMass;
    this.discretization = discretization;
  }

  PrivacyLossDistribution discretize(LossModel model) {
    if (model instanceof Outcomes outcomes) {
      return discretizeOutcomes(outcomes);
    }
    return discretizeMonotone((MonotoneLoss) model);
  }

  private boolean pessimistic() {
    return discretization == Discretization.PESSIMISTIC;
  }

  /** Accumulates masses on a grid [lo, hi] of indices. */
  private final class Grid {
    final long lo;
    final double[] masses;
    double infinity;

    Grid(double minLoss, double maxLoss) {
      // One spare point on each side absorbs rounding of iΔ against the losses.
      lo = index(Math.floor(minLoss / interval)) - 1;
      long hi = index(Math.ceil(maxLoss / interval)) + 1;
      long points = hi - lo + 1;
      if (points > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(
            "grid of " + points + " points for losses in [" + minLoss + ", " + maxLoss
                + "] at interval " + interval + ": the accountant must coarsen the interval first");
      }
      masses = new double[(int) points];
    }

    void add(long index, double mass) {
      masses[(int) (index - lo)] += mass;
    }

    /** An atom: split (pessimistic) or rounded down (optimistic). */
    void atom(double loss, double mass) {
      if (mass == 0) {
        return;
      }
      if (loss == Double.POSITIVE_INFINITY) {
        infinity += mass;
        return;
      }
      long g = index(Math.floor(loss / interval));
      double gridLoss = g * interval;
      if (!pessimistic()) {
        add(gridLoss <= loss ? g : g - 1, mass * (1 - MARGIN));
        return;
      }
      if (gridLoss == loss) {
        add(g, mass * (1 + MARGIN));
        return;
      }
      if (gridLoss > loss) {
        g -= 1;
        gridLoss = g * interval;
      }
      double upper = clamp(-Math.expm1(gridLoss - loss) / -Math.expm1(-interval));
      split(g, mass * (1 - upper), mass * upper);
    }

    /** Adds a bin's lower and upper shares with the safety margin. */
    void split(long lowerIndex, double lowerShare, double upperShare) {
      if (pessimistic()) {
        add(lowerIndex, lowerShare * (1 - MARGIN));
        add(lowerIndex + 1, upperShare * (1 + MARGIN) + 2 * MARGIN * lowerShare);
      } else {
        add(lowerIndex, (lowerShare + upperShare) * (1 - MARGIN));
      }
    }

    PrivacyLossDistribution build() {
      return new PrivacyLossDistribution(
          discretization, interval, lo, masses, pessimistic() ? infinity * (1 + MARGIN) : infinity, 0);
    }
  }

  /**
   * A grid index held as a whole double, checked to be within {@link #MAX_INDEX}: a cast of a
   * larger value would saturate silently and put mass at the wrong loss.
   */
  private static long index(double wholeIndex) {
    if (!(Math.abs(wholeIndex) <= MAX_INDEX)) {
      throw new IllegalStateException(
          "grid index " + wholeIndex + " exceeds " + MAX_INDEX
              + ": the accountant must coarsen the interval first");
    }
    return (long) wholeIndex;
  }

  /**
   * [min, max] of the finite losses the grid for this model must hold at tail mass τ, or null if
   * the model has none; used by the accountant to choose an interval before discretizing.
   */
  static double[] lossRange(LossModel model, double tailMass) {
    if (model instanceof Outcomes outcomes) {
      return finiteRange(outcomes);
    }
    MonotoneLoss monotone = (MonotoneLoss) model;
    double lossA = monotone.loss(monotone.xLower(tailMass));
    double lossB = monotone.loss(monotone.xUpper(tailMass));
    double[] atoms = finiteRange(monotone.atoms());
    double min = Math.min(lossA, lossB);
    double max = Math.max(lossA, lossB);
    return atoms == null ? new double[] {min, max}
        : new double[] {Math.min(min, atoms[0]), Math.max(max, atoms[1])};
  }

  private static double clamp(double w) {
    return Math.max(0, Math.min(1, w));
  }

  private PrivacyLossDistribution discretizeOutcomes(Outcomes outcomes) {
    double[] range = finiteRange(outcomes);
    if (range == null) {
      range = new double[] {0, 0};
    }
    Grid grid = new Grid(range[0], range[1]);
    addAtoms(grid, outcomes);
    addTails(grid, outcomes.lowerTail(), outcomes.upperTail(), range[0], range[1]);
    return grid.build();
  }

  /** [min, max] of the finite losses of outcomes with positive P-mass, or null if none. */
  private static double[] finiteRange(Outcomes outcomes) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < outcomes.p().length; i++) {
      double l = outcomes.loss()[i];
      if (outcomes.p()[i] > 0 && Double.isFinite(l)) {
        min = Math.min(min, l);
        max = Math.max(max, l);
      }
    }
    return min <= max ? new double[] {min, max} : null;
  }

  private static void addAtoms(Grid grid, Outcomes outcomes) {
    for (int i = 0; i < outcomes.p().length; i++) {
      if (outcomes.p()[i] > 0) {
        grid.atom(outcomes.loss()[i], outcomes.p()[i]);
      }
    }
  }

  /**
   * Mass with losses below {@code below} and above {@code above}: pessimistic moves the lower tail
   * up to the first grid point ≥ below and the upper tail to +∞; optimistic drops the lower tail and
   * moves the upper tail down to the last grid point ≤ above.
   */
  private void addTails(Grid grid, double lowerTail, double upperTail, double below, double above) {
    if (pessimistic()) {
      grid.add(index(Math.ceil(below / interval)), lowerTail * (1 + MARGIN));
      grid.infinity += upperTail;
    } else {
      grid.add(index(Math.floor(above / interval)), upperTail * (1 - MARGIN));
    }
  }

  private PrivacyLossDistribution discretizeMonotone(MonotoneLoss model) {
    double xa = model.xLower(tailMass);
    double xb = model.xUpper(tailMass);
    double lossA = model.loss(xa);
    double lossB = model.loss(xb);
    double cMin = Math.min(lossA, lossB);
    double cMax = Math.max(lossA, lossB);
    double belowX = model.massBelow(xa);
    double aboveX = model.massAbove(xb);
    double lowerTail = model.increasing() ? belowX : aboveX;
    double upperTail = model.increasing() ? aboveX : belowX;

    Outcomes atoms = model.atoms();
    double[] atomRange = finiteRange(atoms);
    double min = atomRange == null ? cMin : Math.min(cMin, atomRange[0]);
    double max = atomRange == null ? cMax : Math.max(cMax, atomRange[1]);
    Grid grid = new Grid(min, max);
    addAtoms(grid, atoms);
    addTails(grid, lowerTail, upperTail, cMin, cMax);

    double expm1Up = Math.expm1(interval);
    double expm1Down = -Math.expm1(-interval);
    double pieceWidth = model.scale() / 64;
    long first = index(Math.floor(cMin / interval));
    long last = index(Math.ceil(cMax / interval));
    for (long i = first; i < last; i++) {
      double gridLo = i * interval;
      double gridHi = (i + 1) * interval;
      double l0 = Math.max(gridLo, cMin);
      double l1 = Math.min(gridHi, cMax);
      if (!(l1 > l0)) {
        continue;
      }
      double x0 = xAt(model, l0, lossA, xa, lossB, xb);
      double x1 = xAt(model, l1, lossA, xa, lossB, xb);
      double from = Math.max(xa, Math.min(x0, x1));
      double to = Math.min(xb, Math.max(x0, x1));
      if (!(to > from)) {
        continue;
      }
      int pieces = (int) Math.max(1, Math.ceil((to - from) / pieceWidth));
      double width = (to - from) / pieces;
      double lowerShare = 0;
      double upperShare = 0;
      for (int k = 0; k < pieces; k++) {
        double mid = from + (k + 0.5) * width;
        double half = 0.5 * width;
        for (int n = 0; n < NODES.length; n++) {
          double x = mid + half * NODES[n];
          double weight = WEIGHTS[n] * half * model.density(x);
          double l = model.loss(x);
          lowerShare += weight * clamp(Math.expm1(gridHi - l) / expm1Up);
          upperShare += weight * clamp(-Math.expm1(gridLo - l) / expm1Down);
        }
      }
      grid.split(i, lowerShare, upperShare);
    }
    return grid.build();
  }

  /** x at a bin end, using the exact truncation point when the end is the truncation loss. */
  private static double xAt(
      MonotoneLoss model, double l, double lossA, double xa, double lossB, double xb) {
    if (l == lossA) {
      return xa;
    }
    if (l == lossB) {
      return xb;
    }
    return model.xAtLoss(l);
  }
}
