package dev.tradeoff.accounting.pld;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

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
 * loss in it (lower tail). Optimistic: the same per-bin shares are garbled onto the grid so that the
 * discrete pair is a post-processing of the true one (see {@code Grid.garble}); the upper tail
 * goes to the highest grid point below it and the lower tail is dropped.
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

  /**
   * How many bins above a grid point the optimistic garble pulls atoms down to it from (see
   * {@code Grid.garble}): far enough to balance a pile of mass next to the end of the support,
   * near enough not to flatten the upper tail (pulling from 4096 bins at Δ = 1e-4 cut the variance
   * of a sampled Gaussian's loss by 97%).
   */
  static final int PULL_BINS = 16;

  private static final double[] NODES = {
    -0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526
  };
  private static final double[] WEIGHTS = {
    0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538
  };

  private final double interval;
  private final double tailMass;
  private final Discretization discretization;
  private final SharedShares shared;

  Discretizer(double interval, double tailMass, Discretization discretization) {
    this(interval, tailMass, discretization, new SharedShares());
  }

  /**
   * A discretizer that takes the quadrature of monotone losses from (and adds it to) {@code
   * shared}: the pessimistic and the optimistic bound integrate the same shares and differ only
   * in how they put them on the grid.
   */
  Discretizer(
      double interval, double tailMass, Discretization discretization, SharedShares shared) {
    this.interval = interval;
    this.tailMass = tailMass;
    this.discretization = discretization;
    this.shared = shared;
  }

  /**
   * The per-bin quadrature of monotone losses, by model, interval and tail mass, shared between
   * discretizers that may run concurrently (a second request for the same key waits for the
   * first).
   */
  static final class SharedShares {
    private final Map<Key, BinShares> shares = new ConcurrentHashMap<>();

    private record Key(MonotoneLoss model, double interval, double tailMass) {}

    BinShares get(MonotoneLoss model, double interval, double tailMass,
        Function<MonotoneLoss, BinShares> compute) {
      return shares.computeIfAbsent(new Key(model, interval, tailMass),
          key -> compute.apply(key.model()));
    }
  }

  /**
   * The quadrature of a monotone loss: the x-range [xa, xb] integrated, its losses, the tail
   * masses left out, and for each bin [iΔ, (i+1)Δ] from {@code first} on the P-mass shares of its
   * lower and upper grid point.
   */
  record BinShares(double xa, double xb, double lossA, double lossB, double lowerTail,
      double upperTail, long first, double[] lower, double[] upper) {}

  PrivacyLossDistribution discretize(LossModel model) {
    if (model instanceof Outcomes outcomes) {
      return discretizeOutcomes(outcomes);
    }
    MonotoneLoss monotone = (MonotoneLoss) model;
    return build(monotone, shares(monotone));
  }

  /** Computes (or waits for) the shared quadrature of a monotone model; nothing for outcomes. */
  void prepare(LossModel model) {
    if (model instanceof MonotoneLoss monotone) {
      shares(monotone);
    }
  }

  private BinShares shares(MonotoneLoss model) {
    return shared.get(model, interval, tailMass, this::quadrature);
  }

  private boolean pessimistic() {
    return discretization == Discretization.PESSIMISTIC;
  }

  /**
   * Accumulates masses on a grid [lo, hi] of indices. Pessimistic: each bin's P-mass is split
   * between its two grid points at once. Optimistic: each bin's two shares are kept (L_b to the
   * lower point, U_b to the upper point, as the pessimistic split would send them) and {@link
   * #build} garbles them onto the grid.
   */
  private final class Grid {
    final long lo;
    final double[] masses;
    final double[] binLower;
    final double[] binUpper;
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
      binLower = pessimistic() ? null : new double[(int) points];
      binUpper = pessimistic() ? null : new double[(int) points];
    }

    void add(long index, double mass) {
      masses[(int) (index - lo)] += mass;
    }

    /** An atom: split between the grid points around it. */
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
      if (gridLoss > loss) {
        g -= 1;
        gridLoss = g * interval;
      }
      if (gridLoss == loss) {
        if (pessimistic()) {
          add(g, mass * (1 + MARGIN));
        } else {
          split(g, mass, 0);
        }
        return;
      }
      split(g, mass * lowerFraction(gridLoss, loss), mass * upperFraction(gridLoss, loss));
    }

    /** Adds a bin's lower and upper shares (pessimistic: with the safety margin). */
    void split(long lowerIndex, double lowerShare, double upperShare) {
      if (pessimistic()) {
        add(lowerIndex, lowerShare * (1 - MARGIN));
        add(lowerIndex + 1, upperShare * (1 + MARGIN) + 2 * MARGIN * lowerShare);
      } else {
        binLower[(int) (lowerIndex - lo)] += lowerShare;
        binUpper[(int) (lowerIndex - lo)] += upperShare;
      }
    }

    PrivacyLossDistribution build() {
      if (pessimistic()) {
        return new PrivacyLossDistribution(
            discretization, interval, lo, masses, infinity * (1 + MARGIN), 0);
      }
      garble();
      for (int i = 0; i < masses.length; i++) {
        masses[i] *= 1 - MARGIN;
      }
      return new PrivacyLossDistribution(discretization, interval, lo, masses, infinity, 0);
    }

    /**
     * The optimistic counterpart of connect-the-dots: merging each bin's outcomes into one atom
     * (p_b, q_b) is a post-processing, exact at the grid points. Grid point j then receives
     * fractions f_i of atoms i &lt; j below it and fractions v_h of atoms h ≥ j above it in the
     * proportion that makes its loss exactly jΔ: Σ_i f_i·D_i(j) = Σ_h v_h·X_h(j), with the deficit
     * D_i(j) = e^{jΔ}q_i − p_i = e^{kΔ}E↑_i + p_i(e^{kΔ} − 1), k = j − i − 1, and the excess
     * X_h(j) = p_h − e^{jΔ}q_h = p_h(1 − e^{−(h−j)Δ}) + e^{−(h−j)Δ}E↓_h (E↑_i = L_i(e^Δ − 1) and
     * E↓_h = U_h(1 − e^{−Δ}) from the bin's shares; every term non-negative, so nothing cancels).
     * This too is a post-processing of the true pair, so the result is dominated by it and stays
     * dominated under composition.
     *
     * <p>Atoms wait on a stack until they are placed and are matched nearest first; the excess
     * comes from atom j, then from the atoms up to {@value #PULL_BINS} bins above, pulled down to
     * jΔ. What an atom has left is rounded down to its bin's lower point keeping its P-mass (a
     * coupling with a smaller loss, also a lower bound under composition), at the end or as soon
     * as merging it beyond the next grid point would cost more than rounding it down: merging at
     * distance d above its loss l lowers the mean loss by about d(d + Δ)/2 per unit of P-mass,
     * rounding down by l − iΔ. Rounding down is first order in Δ, merging second order, and the
     * difference is what a Poisson-sampled Gaussian with a rate of the order of Δ needs: its loss
     * log(1 − q + qe^u) piles up within a fraction of q above its infimum log(1 − q), and a garble
     * that matched neighbouring bins only rounded most of that pile down (σ = 0.5, q = 1e-4 at
     * Δ = 2e-5: a mean loss per step of −3.29e-6 where the pessimistic pair's is 2.543e-7, −0.33
     * over 10^5 steps; now 2.540e-7).
     */
    private void garble() {
      double up = Math.expm1(interval);
      double down = -Math.expm1(-interval);
      boolean matched = Double.isFinite(up);
      int n = masses.length;
      double[] available = new double[n]; // the fraction of each atom not yet placed
      java.util.Arrays.fill(available, 1);
      int[] stackBin = new int[n];
      double[] stackFraction = new double[n];
      int top = 0;
      int pull = 0; // atoms below it have nothing left to pull down
      for (int j = 0; j < n; j++) {
        double mass = binLower[j] + binUpper[j];
        // Atom j, then the atoms above it (pulled down to jΔ), supply the excess.
        for (int h = j; matched && top > 0 && h < n && h - j <= PULL_BINS;
            h = h == j ? Math.max(j + 1, pull) : h + 1) {
          double p = binLower[h] + binUpper[h];
          if (available[h] <= 0 || p <= 0) {
            if (h > j && h == pull) {
              pull++;
            }
            continue;
          }
          int above = h - j;
          double unitExcess = p * -Math.expm1(-above * interval)
              + Math.exp(-above * interval) * binUpper[h] * down;
          double remaining = available[h] * unitExcess;
          while (top > 0 && remaining > 0) {
            int i = stackBin[top - 1];
            double pi = binLower[i] + binUpper[i];
            int k = j - i - 1;
            double distance = (j - i) * interval - lossAbove(i, pi, up);
            if (k > 0 && distance * (distance + interval) > 2 * lossAbove(i, pi, up)) {
              masses[i] += stackFraction[--top] * pi; // merging further costs more: round down
              continue;
            }
            double deficit =
                Math.exp(k * interval) * binLower[i] * up + pi * Math.expm1(k * interval);
            if (!(deficit > 0)) {
              // Its loss is jΔ (no lower share): it lies on the grid point as it is.
              masses[j] += stackFraction[--top] * pi;
              continue;
            }
            double need = stackFraction[top - 1] * deficit;
            double match = Math.min(need, remaining);
            double fraction = match / deficit;
            double fromH = match / unitExcess;
            masses[j] += fraction * pi + fromH * p;
            available[h] = Math.max(0, available[h] - fromH);
            remaining -= match;
            if (match >= need) {
              top--;
            } else {
              stackFraction[top - 1] -= fraction;
            }
          }
          if (h > j && h == pull && available[h] <= 0) {
            pull++;
          }
        }
        if (mass > 0 && available[j] > 0) {
          stackBin[top] = j;
          stackFraction[top++] = available[j];
          available[j] = 0;
        }
      }
      while (top > 0) {
        int i = stackBin[--top];
        masses[i] += stackFraction[top] * (binLower[i] + binUpper[i]);
      }
    }

    /**
     * The loss of atom i above its bin's lower point, l_i − iΔ = Δ − log(1 + L_i(e^Δ − 1)/p_i)
     * (from e^{(i+1)Δ}q_i = p_i + E↑_i), in [0, Δ].
     */
    private double lossAbove(int i, double p, double up) {
      return Math.max(0, interval - Math.log1p(binLower[i] * up / p));
    }
  }

  /** (e^{(g+1)Δ−l} − 1)/(e^Δ − 1) for l in [gΔ, (g+1)Δ], finite for any Δ. */
  private double lowerFraction(double gridLo, double loss) {
    return clamp(Math.exp(gridLo - loss) * -Math.expm1(loss - gridLo - interval)
        / -Math.expm1(-interval));
  }

  /** (1 − e^{gΔ−l})/(1 − e^{−Δ}) for l in [gΔ, (g+1)Δ]. */
  private double upperFraction(double gridLo, double loss) {
    return clamp(-Math.expm1(gridLo - loss) / -Math.expm1(-interval));
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

  /** The per-bin shares of the model's P-mass (see the class comment). */
  private BinShares quadrature(MonotoneLoss model) {
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

    double pieceWidth = model.scale() / 64;
    long first = index(Math.floor(cMin / interval));
    long last = index(Math.ceil(cMax / interval));
    double[] lowerShares = new double[(int) Math.max(0, last - first)];
    double[] upperShares = new double[lowerShares.length];
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
          lowerShare += weight * lowerFraction(gridLo, l);
          upperShare += weight * upperFraction(gridLo, l);
        }
      }
      lowerShares[(int) (i - first)] = lowerShare;
      upperShares[(int) (i - first)] = upperShare;
    }
    return new BinShares(xa, xb, lossA, lossB, lowerTail, upperTail, first, lowerShares,
        upperShares);
  }

  /** The model on the grid from its shares, atoms and tails, in this discretizer's direction. */
  private PrivacyLossDistribution build(MonotoneLoss model, BinShares shares) {
    double cMin = Math.min(shares.lossA(), shares.lossB());
    double cMax = Math.max(shares.lossA(), shares.lossB());
    Outcomes atoms = model.atoms();
    double[] atomRange = finiteRange(atoms);
    double min = atomRange == null ? cMin : Math.min(cMin, atomRange[0]);
    double max = atomRange == null ? cMax : Math.max(cMax, atomRange[1]);
    Grid grid = new Grid(min, max);
    addAtoms(grid, atoms);
    addTails(grid, shares.lowerTail(), shares.upperTail(), cMin, cMax);
    double[] lower = shares.lower();
    double[] upper = shares.upper();
    for (int j = 0; j < lower.length; j++) {
      if (lower[j] != 0 || upper[j] != 0) {
        grid.split(shares.first() + j, lower[j], upper[j]);
      }
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
