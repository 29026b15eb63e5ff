package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.numerics.LogMath;
import java.util.PriorityQueue;

/**
 * A Lagrangian certificate for Post_{A,α,k}(ε) [BernAmp21,
 * Theorems 1 and 3] that works for every dimension d and sample count k by
 * reducing the problem to two variables.
 *
 * <p><b>Theorem.</b> With n = dk, F(p, s) the Theorem 4 Rényi sum of the antipodal pair P = (p, 1 −
 * p), Q = (1 − s, s) on {c}^d, {1 − c}^d, G1, G2 its two input Rényi sums and E = e^{(α−1)ε}: for all
 * λ1, λ2 ≥ 0, e^{(α−1)·Post_{A,α,k}(ε)} ≤ sup_{(p,s) ∈ (0,1)²} L(p, s), L = F − λ1 (G1 − E) − λ2 (G2
 * − E). The statement, its proof (vertices of a two-equation polytope, then data processing) and the
 * justification of every box bound below are in docs/amplification-certificate.md.
 *
 * <p>The multipliers are the KKT multipliers of the pair (3)–(4), (p, s) = (p*, p*); sup L = F* then
 * proves Post equal to the lower bound (5)/(7). sup L is bounded by a best-first branch and bound
 * over boxes in logit coordinates (p ≤ 1/2 by the flip symmetry), each box bounded by the least of a
 * first-order (monotone) bound, a convexity bound (F below its interpolant, G above its tangent
 * plane), a second-order Taylor bound (plain, and anchored on the largest terms so that F and G1
 * may cancel) and an anchored first-order bound. All arithmetic is in log space, with rounding
 * margins proportional to the magnitudes of the terms.
 *
 * <p>{@link #certify} is stateless: each call builds its own {@link Lagrangian} (whose only
 * mutable parts are a scratch array and interval values computed on first use, so it is used by
 * that call's thread alone) and search, and returns an immutable {@link Result}.
 */
final class LagrangianCertificate {


  /**
   * @param logUpper log of a proven upper bound on e^{(α−1)·Post}
   * @param logScale log F* = log F(p*, p*), the Rényi sum of the pair (3)–(4)
   * @param logFeasible log of the best Rényi sum F attained at a feasible antipodal pair seen (−∞
   *     if none besides the start)
   * @param lambda1 the scaled multiplier λ1·E/F* used
   * @param lambda2 the scaled multiplier λ2·E/F* used
   * @param nodes boxes branched
   * @param converged whether log(upper) − log F* reached the tolerance
   */
  record Result(
      double logUpper,
      double logScale,
      double logFeasible,
      double lambda1,
      double lambda2,
      long nodes,
      boolean converged) {}

  /**
   * A box in logit coordinates, its bound on L/F* and the best F/F* at a feasible corner (log), with
   * its corners (p0, s0), (p1, s0), (p0, s1), (p1, s1) and its two intervals, which its halves
   * share.
   */
  private record Box(
      double p0,
      double p1,
      double s0,
      double s1,
      double bound,
      double feasible,
      boolean splitP,
      Corner[] corners,
      Lagrangian.Axis pAxis,
      Lagrangian.Axis sAxis) {}

  /**
   * What a box's bound is computed for. A box closes once its bound is at most {@code target}; the
   * search returns max(1, largest closed bound, largest open bound), so a bound at or below {@code
   * floor} — 1, or the largest bound closed so far, which the result can only exceed — changes
   * nothing: whichever of the box's bounds is the least, the box closes, the result is the same, and
   * so is every split decision (a half at or below the floor is below the target, so it decides
   * nothing that the other half does not). So a box's bounds are tried, in the same order as ever,
   * only until one is at or below the floor, and the search is the same search, bit for bit.
   *
   * @param target e^{tolerance} &gt; 1
   * @param floor max(1, largest bound closed so far) ≤ target
   */
  private record Goal(double target, double floor) {}

  /**
   * A corner of a box: its two logits, the point, log F/F* there, and whether both constraints hold
   * there. Corners on one line t_p = const (or t_s = const) share that {@link Side}.
   */
  private record Corner(Side p, Side s, Point point, double phi, boolean feasible) {}

  /**
   * One logit t of a corner, on the p side or the s side: log σ(t), log σ(−t), σ(t), and for each
   * Hamming weight j the log-mass of the output at j that depends on this side alone, log(x a_j +
   * (1 − x) b_j) on the p side (x = σ(t_p)) and log((1 − s) a_j + s b_j) on the s side (s =
   * σ(t_s)). F at a corner is Σ_j w_j e^{α·mix_p[j] + (1−α)·mix_s[j]}.
   */
  private record Side(double sigma, double logSigma, double logSigmaNeg, double[] mix) {}

  /** A point with its coordinates and their complements as logarithms, accurately. */
  private record Point(double x, double s, double lx, double l1x, double ls, double l1s) {
    static Point ofLogits(double px, double ps) {
      double lx = logSigmoid(px);
      double l1x = logSigmoid(-px);
      double ls = logSigmoid(ps);
      double l1s = logSigmoid(-ps);
      return new Point(Math.exp(lx), Math.exp(ls), lx, l1x, ls, l1s);
    }
  }

  private final double alpha;
  private final int n;
  private final double[] logW;
  private final double[] logA;
  private final double[] logB;
  private final double logBudget;

  /**
   * @param weights n = d·k
   * @param logBudget (α − 1)·ε = log E
   */
  LagrangianCertificate(double alpha, double c, int weights, double logBudget) {
    this.alpha = alpha;
    this.n = weights;
    this.logBudget = logBudget;
    this.logW = new double[n + 1];
    this.logA = new double[n + 1];
    this.logB = new double[n + 1];
    double logC = Math.log(c);
    double log1mC = Math.log1p(-c);
    for (int j = 0; j <= n; j++) {
      logW[j] = LogMath.logBinomial(n, j);
      logA[j] = times(j, logC) + times(n - j, log1mC);
      logB[j] = times(n - j, logC) + times(j, log1mC);
    }
  }

  /**
   * Bounds sup L for the KKT multipliers of the pair (p, s) = (p*, p*). Stateless: every call
   * builds its own {@link Lagrangian} and search, and the result is an immutable record.
   *
   * @param logP log p* (the p(ε) of the lower bound), &gt; −650
   * @param logTolerance stop once log(upper) − log F(p*, p*) ≤ this
   * @param maxNodes branching budget
   */
  Result certify(double logP, double logTolerance, long maxNodes) {
    Lagrangian lagrangian = lagrangian(logP);
    double target = Math.exp(logTolerance);
    PriorityQueue<Box> open = new PriorityQueue<>((a, b) -> Double.compare(b.bound(), a.bound()));
    double settled = Double.NEGATIVE_INFINITY;
    Box root =
        lagrangian.box(
            Double.NEGATIVE_INFINITY, 0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            new Goal(target, 1));
    double bestFeasible = root.feasible();
    open.add(root);
    long nodes = 0;
    while (!open.isEmpty() && open.peek().bound() > target && nodes < maxNodes) {
      Box b = open.poll();
      nodes++;
      Box[] children = split(lagrangian, b, new Goal(target, Math.max(1, settled)));
      for (Box child : children) {
        bestFeasible = Math.max(bestFeasible, child.feasible());
        if (child.bound() <= target) {
          settled = Math.max(settled, child.bound());
        } else {
          open.add(child);
        }
      }
    }
    double upper = Math.max(settled, open.isEmpty() ? Double.NEGATIVE_INFINITY : open.peek().bound());
    upper = Math.max(upper, 1);
    double logScale = lagrangian.logScale;
    double logFeasible =
        bestFeasible == Double.NEGATIVE_INFINITY ? bestFeasible : logScale + bestFeasible;
    return new Result(
        logScale + Math.log(upper),
        logScale,
        logFeasible,
        lagrangian.lam1,
        lagrangian.lam2,
        nodes,
        upper <= target);
  }

  /**
   * The two halves of a box: across its wider side (in logit units), unless the box is finite,
   * that split leaves the larger half's bound more than half the box's excess over the target
   * above it, and splitting the other side brings it within half; then across the other side.
   * Either split is a partition of the box, so every bound stays a proven bound; the choice only
   * decides how fast the search closes. It matters where
   * L/F* has a ridge along one axis: at α = 50, c = 0.1, dk = 20, ε = 30, L/F* stays within
   * 10^−3 of 1 along the whole segment s = p* of p; halving p there barely lowers the bound (it is
   * set by the width in s), so the wider-side rule alone cut the ridge into square boxes and needed
   * 318 791 of them, where this rule closes it in about 1 600. Where both splits help alike the
   * wider side is kept (a purely greedy choice needed 424 000 boxes instead of 1 946 at α = 5,
   * c = 0.1, dk = 1, ε = 1, by thinning boxes that also had to be cut across).
   */
  private static Box[] split(Lagrangian lagrangian, Box b, Goal goal) {
    double target = goal.target();
    double excess = b.bound() - target;
    Box[] wider = halves(lagrangian, b, b.splitP(), goal, Double.POSITIVE_INFINITY);
    boolean finite =
        Double.isFinite(b.p0()) && Double.isFinite(b.s0()) && Double.isFinite(b.s1());
    if (!finite || worst(wider) - target <= 0.5 * excess) {
      return wider;
    }
    Box[] other = halves(lagrangian, b, !b.splitP(), goal, 0.5 * excess);
    return other != null && worst(other) - target <= 0.5 * excess ? other : wider;
  }

  /**
   * The two halves of a box across p ({@code acrossP}) or across s, or null when the first half's
   * bound exceeds the target by more than {@code allowed} (the caller then rejects the split
   * whatever the second half's bound). They share two of the box's corners each, the two new
   * corners on the cut, the box's interval on the side not cut, and the knots of the halved one.
   */
  private static Box[] halves(
      Lagrangian lagrangian, Box b, boolean acrossP, Goal goal, double allowed) {
    Corner[] c = b.corners();
    Lagrangian.Axis pAxis = b.pAxis();
    Lagrangian.Axis sAxis = b.sAxis();
    Box first;
    if (acrossP) {
      double m = splitPoint(b.p0(), b.p1());
      Side cut = lagrangian.side(true, m);
      Corner low = lagrangian.corner(cut, c[0].s());
      Corner high = lagrangian.corner(cut, c[2].s());
      first =
          lagrangian.box(b.p0(), m, b.s0(), b.s1(), new Corner[] {c[0], low, c[2], high},
              pAxis.half(true, m), sAxis, goal);
      if (first.bound() - goal.target() > allowed) {
        return null;
      }
      return new Box[] {
        first,
        lagrangian.box(m, b.p1(), b.s0(), b.s1(), new Corner[] {low, c[1], high, c[3]},
            pAxis.half(false, m), sAxis, goal)
      };
    }
    double m = splitPoint(b.s0(), b.s1());
    Side cut = lagrangian.side(false, m);
    Corner left = lagrangian.corner(c[0].p(), cut);
    Corner right = lagrangian.corner(c[1].p(), cut);
    first =
        lagrangian.box(b.p0(), b.p1(), b.s0(), m, new Corner[] {c[0], c[1], left, right},
            pAxis, sAxis.half(true, m), goal);
    if (first.bound() - goal.target() > allowed) {
      return null;
    }
    return new Box[] {
      first,
      lagrangian.box(b.p0(), b.p1(), m, b.s1(), new Corner[] {left, right, c[2], c[3]},
          pAxis, sAxis.half(false, m), goal)
    };
  }

  private static double worst(Box[] halves) {
    return Math.max(halves[0].bound(), halves[1].bound());
  }

  /** The Lagrangian L/F* with the KKT multipliers of the pair (p*, p*), p* = e^{logP}. */
  Lagrangian lagrangian(double logP) {
    return new Lagrangian(logP);
  }

  /** KKT multipliers at the pair (3)–(4): ∇(F/F*) = λ̃1 ∇(G1/E) + λ̃2 ∇(G2/E), clamped at 0. */
  private double[] multipliers(Point z, double logScale) {
    double[] pos = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
    double[] neg = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
    for (int j = 0; j <= n; j++) {
      if (logA[j] == logB[j]) {
        continue;
      }
      boolean positive = logA[j] > logB[j];
      double logDiff =
          Math.max(logA[j], logB[j]) + LogMath.log1mExp(-Math.abs(logA[j] - logB[j]));
      double lx = LogMath.logAddExp(z.lx() + logA[j], z.l1x() + logB[j]);
      double ly = LogMath.logAddExp(z.l1s() + logA[j], z.ls() + logB[j]);
      double tp = Math.log(alpha) + logW[j] + (alpha - 1) * (lx - ly) + logDiff - logScale;
      double ts = Math.log(alpha - 1) + logW[j] + alpha * (lx - ly) + logDiff - logScale;
      if (positive) {
        pos[0] = LogMath.logAddExp(pos[0], tp);
        pos[1] = LogMath.logAddExp(pos[1], ts);
      } else {
        neg[0] = LogMath.logAddExp(neg[0], tp);
        neg[1] = LogMath.logAddExp(neg[1], ts);
      }
    }
    double fp = Math.exp(pos[0]) - Math.exp(neg[0]);
    double fs = Math.exp(pos[1]) - Math.exp(neg[1]);
    double[][] t = tangent(z);
    double g1p = value(t[1]);
    double g1s = value(t[2]);
    double g2p = value(t[4]);
    double g2s = value(t[5]);
    double det = g1p * g2s - g2p * g1s;
    double l1 = (fp * g2s - g2p * fs) / det;
    double l2 = (g1p * fs - fp * g1s) / det;
    return new double[] {
      l1 > 0 && Double.isFinite(l1) ? l1 : 0, l2 > 0 && Double.isFinite(l2) ? l2 : 0
    };
  }

  private static double value(double[] terms) {
    double v = 0;
    for (int i = 0; i < terms.length; i += 2) {
      v += terms[i + 1] * Math.exp(terms[i]);
    }
    return v;
  }

  /**
   * Signed log-terms (log|t|, sign) of G1/E, ∂p(G1/E), ∂s(G1/E), G2/E, ∂p(G2/E), ∂s(G2/E) at z.
   */
  private double[][] tangent(Point z) {
    double a = alpha;
    double la = Math.log(a);
    double la1 = Math.log(a - 1);
    double lp = z.lx();
    double l1p = z.l1x();
    double ls = z.ls();
    double l1s = z.l1s();
    double e = logBudget;
    return new double[][] {
      {a * lp + (1 - a) * l1s - e, 1, a * l1p + (1 - a) * ls - e, 1},
      {la + (a - 1) * lp + (1 - a) * l1s - e, 1, la + (a - 1) * l1p + (1 - a) * ls - e, -1},
      {la1 + a * lp - a * l1s - e, 1, la1 + a * l1p - a * ls - e, -1},
      {a * l1s + (1 - a) * lp - e, 1, a * ls + (1 - a) * l1p - e, 1},
      {la1 + a * l1s - a * lp - e, -1, la1 + a * ls - a * l1p - e, 1},
      {la + (a - 1) * l1s + (1 - a) * lp - e, -1, la + (a - 1) * ls + (1 - a) * l1p - e, 1}
    };
  }

  /** The {@link Side} at the logit t of the p side ({@code p}) or of the s side. */
  private Side side(boolean p, double t) {
    double logSigma = logSigmoid(t);
    double logSigmaNeg = logSigmoid(-t);
    double[] mix = new double[n + 1];
    for (int j = 0; j <= n; j++) {
      mix[j] =
          p
              ? LogMath.logAddExp(logSigma + logA[j], logSigmaNeg + logB[j])
              : LogMath.logAddExp(logSigmaNeg + logA[j], logSigma + logB[j]);
    }
    return new Side(Math.exp(logSigma), logSigma, logSigmaNeg, mix);
  }

  /** The point of the logits of two sides. */
  private static Point point(Side p, Side s) {
    return new Point(p.sigma(), s.sigma(), p.logSigma(), p.logSigmaNeg(), s.logSigma(),
        s.logSigmaNeg());
  }

  /** log F at the corner of two sides. */
  private double logF(Side p, Side s) {
    double[] terms = new double[n + 1];
    for (int j = 0; j <= n; j++) {
      terms[j] = logW[j] + alpha * p.mix()[j] + (1 - alpha) * s.mix()[j];
    }
    return LogMath.logSumExp(terms);
  }

  /** log G1/E and log G2/E at a point (+∞ where a mass is 0 against a positive one). */
  private double[] logConstraints(Point z) {
    double a = alpha;
    return new double[] {
      LogMath.logAddExp(power(a, z.lx(), z.l1s()), power(a, z.l1x(), z.ls())) - logBudget,
      LogMath.logAddExp(power(a, z.l1s(), z.lx()), power(a, z.ls(), z.l1x())) - logBudget
    };
  }

  /** log(u^α v^{1−α}) with 0^α·v^{1−α} = 0 and u^α·0^{1−α} = ∞ for u &gt; 0. */
  private static double power(double a, double logU, double logV) {
    if (logU == Double.NEGATIVE_INFINITY) {
      return Double.NEGATIVE_INFINITY;
    }
    return a * logU + (1 - a) * logV;
  }

  /**
   * The Lagrangian L/F* of one start p*: its scale F*, multipliers, rounding margin and terms, all
   * fixed at construction, and the bounds on L/F* over boxes. One per {@link #certify}, used by one
   * thread: its Taylor bound reuses a scratch array.
   */
  final class Lagrangian {
    private final double logScale;
    private final double lam1;
    private final double lam2;
    /** log λ̃1, log λ̃2 and log(λ̃1 + λ̃2), which every box's first- and second-order bounds use. */
    private final double logLam1;
    private final double logLam2;
    private final double logLamSum;
    private final double relErr;
    private final Terms terms;
    /** Scratch rows of {@link LagrangianCertificate#taylor}, one per term, rewritten by each call. */
    private final double[][] work;

    private Lagrangian(double logP) {
      double pLogit = logP - LogMath.log1mExp(logP);
      Side starP = side(true, pLogit);
      Side starS = side(false, pLogit);
      Point star = point(starP, starS);
      this.logScale = logF(starP, starS);
      double[] lambda = multipliers(star, logScale);
      this.lam1 = lambda[0];
      this.lam2 = lambda[1];
      this.logLam1 = Math.log(lam1);
      this.logLam2 = Math.log(lam2);
      this.logLamSum = Math.log(lam1 + lam2);
      this.relErr =
          0x1p-48
              * ((alpha + 1) * (n * Math.abs(logA[0] - logB[0]) + 2 * Math.abs(logP) + 10)
                  + Math.abs(logBudget)
                  + Math.abs(logScale));
      this.terms = new Terms();
      this.work = new double[terms.size][15];
    }

    /**
     * The anchored bound on L/F* over the logit box [p0, p1] × [s0, s1] (finite ends), for the
     * these multipliers; exposed so that tests can check it against
     * sampled values of {@link #scaledLagrangian}.
     */
    double anchoredBoxBound(double p0, double p1, double s0, double s1) {
      return anchoredBound(axis(true, p0, p1), axis(false, s0, s1), Double.NEGATIVE_INFINITY);
    }

    /** L/F* at the logits (tp, ts), for these multipliers. */
    double scaledLagrangian(double tp, double ts) {
      double sum = 0;
      for (int i = 0; i < terms.size; i++) {
        if (terms.sign[i] != 0) {
          sum += terms.sign[i] * Math.exp(terms.log(i, tp, ts));
        }
      }
      return sum;
    }

    /** The box [p0, p1] × [s0, s1] with its corners and bound computed afresh. */
    Box box(double p0, double p1, double s0, double s1, Goal goal) {
      Side sp0 = side(true, p0);
      Side sp1 = side(true, p1);
      Side ss0 = side(false, s0);
      Side ss1 = side(false, s1);
      Corner[] corners = {corner(sp0, ss0), corner(sp1, ss0), corner(sp0, ss1), corner(sp1, ss1)};
      return box(p0, p1, s0, s1, corners, axis(true, p0, p1), axis(false, s0, s1), goal);
    }

    /** The corner of two sides: log F/F* there and whether both constraints hold. */
    Corner corner(Side p, Side s) {
      Point z = point(p, s);
      double[] g = logConstraints(z);
      return new Corner(p, s, z, logF(p, s) - logScale, g[0] <= 0 && g[1] <= 0);
    }

    /** The side at the logit t of the p side ({@code p}) or of the s side. */
    Side side(boolean p, double t) {
      return LagrangianCertificate.this.side(p, t);
    }

    /** The values of the terms' pieces on [t0, t1] of the p logit ({@code p}) or the s logit. */
    Axis axis(boolean p, double t0, double t1) {
      return p
          ? new Axis(t0, t1, terms.kp, terms.xp, terms.yp, null, null)
          : new Axis(t0, t1, terms.ks, terms.xs, terms.ys, null, null);
    }

    /**
     * The box's bound: the least of the first-order, convexity, Taylor and anchored bounds, the
     * last two tried only while the box is not yet closed, and none once one is at or below the
     * goal's floor (see {@link Goal}). {@code pAxis} and {@code sAxis} are the box's two intervals,
     * whose piece values it may share with the boxes beside it.
     */
    private Box box(
        double p0, double p1, double s0, double s1, Corner[] corners, Axis pAxis, Axis sAxis,
        Goal goal) {
      double target = goal.target();
      double floor = goal.floor();
      Point[] points = new Point[4];
      double[] phi = new double[4];
      double maxPhi = Double.NEGATIVE_INFINITY;
      double feasible = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < 4; i++) {
        points[i] = corners[i].point();
        phi[i] = corners[i].phi();
        maxPhi = Math.max(maxPhi, phi[i]);
        if (corners[i].feasible()) {
          feasible = Math.max(feasible, phi[i]);
        }
      }
      double bound = firstOrderBound(points, maxPhi);
      if (bound > floor) {
        Point centre = Point.ofLogits(middle(p0, p1), middle(s0, s1));
        if (centre.x() > 0 && centre.s() > 0 && centre.s() < 1) {
          bound = Math.min(bound, secondOrderBound(points, phi, centre));
        }
      }
      boolean finite = Double.isFinite(p0) && Double.isFinite(s0) && Double.isFinite(s1);
      if (bound > target && finite) {
        bound = Math.min(bound, taylorBound(pAxis, sAxis, floor));
      }
      if (bound > target && finite) {
        bound = Math.min(bound, anchoredBound(pAxis, sAxis, floor));
      }
      return new Box(
          p0, p1, s0, s1, bound, feasible, width(p0, p1) >= width(s0, s1), corners, pAxis, sAxis);
    }

    /**
     * What the Taylor and anchored bounds read of every term's piece κ·ℓ(t; x, y) at one logit t:
     * the piece, σ(t + δ) and σ′(t + δ) (δ = log x − log y; σ′ only where x, y &gt; 0), and σ(t),
     * σ′(t). Each is computed by the same expression as the bounds computed it before they shared
     * it, so the bounds are bit for bit the same.
     */
    private static final class Knot {
      final double[] value;
      final double[] sig;
      final double[] slope;
      final double base;
      final double baseSlope;

      Knot(double t, double[] kappa, double[] x, double[] y) {
        int size = kappa.length;
        value = new double[size];
        sig = new double[size];
        slope = new double[size];
        double logSig = logSigmoid(t);
        double logSigNeg = logSigmoid(-t);
        for (int i = 0; i < size; i++) {
          value[i] = piece(kappa[i], x[i], y[i], logSig, logSigNeg);
          sig[i] = shiftedSigmoid(t, x[i], y[i]);
          if (x[i] != Double.NEGATIVE_INFINITY && y[i] != Double.NEGATIVE_INFINITY) {
            slope[i] = sigmoidSlope(t + x[i] - y[i]);
          }
        }
        base = sigmoid(t);
        baseSlope = sigmoidSlope(t);
      }
    }

    /**
     * One logit interval [t0, t1] of one side (finite when its values are read) and what the bounds
     * read of the terms' pieces on it: the {@link Knot}s at both ends and at the centre, and the
     * least and largest σ′(t + δ) on the interval (σ′ = σ(1 − σ) rises to 1/4 at 0 and falls after:
     * least at an end, largest at the point nearest 0). Computed on first use and kept, so that a
     * box's three Taylor bounds and two anchored bounds, the boxes that share the interval (a box
     * and its halves across the other side), and the halves of the interval (whose ends are its
     * ends and centre) compute each knot once.
     */
    final class Axis {
      final double t0;
      final double t1;
      /** The centre, as the bounds compute it (and as a finite interval is halved). */
      final double tc;
      private final double[] kappa;
      private final double[] x;
      private final double[] y;
      private Knot low;
      private Knot high;
      private Knot centre;
      private double[] slopeLow;
      private double[] slopeHigh;
      private double baseSlopeLow;
      private double baseSlopeHigh;

      private Axis(
          double t0, double t1, double[] kappa, double[] x, double[] y, Knot low, Knot high) {
        this.t0 = t0;
        this.t1 = t1;
        this.tc = 0.5 * (t0 + t1);
        this.kappa = kappa;
        this.x = x;
        this.y = y;
        this.low = low;
        this.high = high;
      }

      /**
       * The half [t0, m] ({@code lower}) or [m, t1] of this interval, m = {@code splitPoint(t0, t1)};
       * it reuses this interval's knots where they are computed and m is their centre.
       */
      Axis half(boolean lower, double m) {
        boolean shared = centre != null && m == tc;
        return lower
            ? new Axis(t0, m, kappa, x, y, shared ? low : null, shared ? centre : null)
            : new Axis(m, t1, kappa, x, y, shared ? centre : null, shared ? high : null);
      }

      /** Computes the knots and slope ranges on first use. */
      private void fill() {
        if (centre != null) {
          return;
        }
        if (low == null) {
          low = new Knot(t0, kappa, x, y);
        }
        if (high == null) {
          high = new Knot(t1, kappa, x, y);
        }
        centre = new Knot(tc, kappa, x, y);
        int size = kappa.length;
        slopeLow = new double[size];
        slopeHigh = new double[size];
        for (int i = 0; i < size; i++) {
          if (x[i] != Double.NEGATIVE_INFINITY && y[i] != Double.NEGATIVE_INFINITY) {
            double u0 = t0 + x[i] - y[i];
            double u1 = t1 + x[i] - y[i];
            slopeLow[i] = Math.min(low.slope[i], high.slope[i]);
            slopeHigh[i] = nearestZero(u0, u1, low.slope[i], high.slope[i]);
          }
        }
        baseSlopeLow = Math.min(low.baseSlope, high.baseSlope);
        baseSlopeHigh = nearestZero(t0, t1, low.baseSlope, high.baseSlope);
      }

      /**
       * σ′ at the point of [u0, u1] nearest 0, given σ′(u0) and σ′(u1): σ′ depends on |u| only, so
       * the value at an end is the one already computed there.
       */
      private double nearestZero(double u0, double u1, double atU0, double atU1) {
        double u = Math.max(u0, Math.min(u1, 0));
        return u == u0 ? atU0 : u == u1 ? atU1 : sigmoidSlope(u);
      }

      /** Whether term i has a piece on this side (κ ≠ 0); a = −1 stands for no anchor. */
      private boolean has(int i) {
        return i >= 0 && kappa[i] != 0;
      }

      /** The piece of term i minus that of the anchor a, from {@code values} (one point). */
      private double pieces(int i, int a, double[] values) {
        double v = 0;
        if (has(i)) {
          v += values[i];
        }
        if (has(a)) {
          v -= values[a];
        }
        return v;
      }

      /** The piece of term i (0 when it has none) at the centre. */
      double centre(int i) {
        fill();
        return centre.value[i];
      }

      /** The piece of term i (0 when it has none) at t0 ({@code atLow}) or t1. */
      double end(int i, boolean atLow) {
        fill();
        return atLow ? low.value[i] : high.value[i];
      }

      /**
       * d/dt of the piece of term i minus the anchor's at the centre: Σ_m κ_m (σ(t + δ_m) − σ(t)),
       * the anchor's κ negated.
       */
      double derivative(int i, int a) {
        fill();
        double v = 0;
        double total = 0;
        if (has(i)) {
          double k = kappa[i];
          v += k * centre.sig[i];
          total += k;
        }
        if (has(a)) {
          double k = -kappa[a];
          v += k * centre.sig[a];
          total += k;
        }
        return v - total * centre.base;
      }

      /**
       * Writes into out[at], out[at + 1] the [min, max] of {@link #derivative} on [t0, t1]:
       * Σ_m κ_m σ(t + δ_m) − (Σ_m κ_m) σ(t) is a signed sum of increasing functions, each bounded by
       * its values at the ends.
       */
      void derivativeRange(int i, int a, double[] out, int at) {
        fill();
        double lo = 0;
        double hi = 0;
        double total = 0;
        for (int m = 0; m < 2; m++) {
          int j = m == 0 ? i : a;
          if (!has(j)) {
            continue;
          }
          double k = m == 0 ? kappa[j] : -kappa[j];
          double v0 = k * low.sig[j];
          double v1 = k * high.sig[j];
          lo += Math.min(v0, v1);
          hi += Math.max(v0, v1);
          total += k;
        }
        double v0 = -total * low.base;
        double v1 = -total * high.base;
        out[at] = lo + Math.min(v0, v1);
        out[at + 1] = hi + Math.max(v0, v1);
      }

      /**
       * Writes into out[at], out[at + 1] the [min, max] of the second derivative Σ_m κ_m σ′(t + δ_m)
       * − (Σ_m κ_m) σ′(t) on [t0, t1]: σ′ = σ(1 − σ) rises to 1/4 at 0 and falls after, so on an
       * interval its minimum is at an end and its maximum at the point nearest 0.
       */
      void secondDerivativeRange(int i, int a, double[] out, int at) {
        fill();
        double lo = 0;
        double hi = 0;
        double total = 0;
        for (int m = 0; m < 2; m++) {
          int j = m == 0 ? i : a;
          if (!has(j)) {
            continue;
          }
          double k = m == 0 ? kappa[j] : -kappa[j];
          total += k;
          if (x[j] == Double.NEGATIVE_INFINITY || y[j] == Double.NEGATIVE_INFINITY) {
            continue;
          }
          double min = slopeLow[j];
          double max = slopeHigh[j];
          lo += k > 0 ? k * min : k * max;
          hi += k > 0 ? k * max : k * min;
        }
        double min = baseSlopeLow;
        double max = baseSlopeHigh;
        out[at] = lo + (total > 0 ? -total * max : -total * min);
        out[at + 1] = hi + (total > 0 ? -total * min : -total * max);
      }

      /**
       * Writes into out[at], out[at + 1] the [min, max] of the pieces on [t0, t1]: one piece is
       * monotone (its derivative has the sign of κ·δ), so its ends bound it; two are bounded by the
       * mean value theorem around the centre, with the derivative range already in out[dat..dat+1].
       */
      void valueRange(int i, int a, double[] out, int at, int dat) {
        fill();
        if (!(has(i) && has(a))) {
          double v0 = pieces(i, a, low.value);
          double v1 = pieces(i, a, high.value);
          out[at] = Math.min(v0, v1);
          out[at + 1] = Math.max(v0, v1);
          return;
        }
        double radius = Math.max(Math.abs(out[dat]), Math.abs(out[dat + 1])) * 0.5 * (t1 - t0);
        double c = pieces(i, a, centre.value);
        out[at] = c - radius;
        out[at + 1] = c + radius;
      }

      /** The piece of term i minus the anchor's at the centre. */
      double piecesAtCentre(int i, int a) {
        fill();
        return pieces(i, a, centre.value);
      }

      /**
       * Largest |d/dt (κ_i ℓ_i − κ_a ℓ_a)| on [t0, t1] for the coefficients ki, ka of the pieces of
       * terms i and a: the derivative is κ_i σ(t + δ_i) − κ_a σ(t + δ_a) + (κ_a − κ_i) σ(t), a signed
       * sum of increasing functions, so each summand is bounded by its values at the ends.
       */
      double slope(double ki, int i, double ka, int a) {
        fill();
        double lo = 0;
        double hi = 0;
        double[] coef = {ki, -ka, ka - ki};
        for (int m = 0; m < 3; m++) {
          if (coef[m] == 0) {
            continue;
          }
          double v0 = coef[m] * (m == 0 ? low.sig[i] : m == 1 ? low.sig[a] : low.base);
          double v1 = coef[m] * (m == 0 ? high.sig[i] : m == 1 ? high.sig[a] : high.base);
          lo += Math.min(v0, v1);
          hi += Math.max(v0, v1);
        }
        return Math.max(Math.abs(lo), Math.abs(hi));
      }

      /** κ of term i's piece on this side (0 when it has none). */
      double kappa(int i) {
        return kappa[i];
      }
    }

    /**
     * The terms of L/F* in separable form: term i is sign_i · e^{const_i + κp_i·ℓ(t_p; xp_i, yp_i) +
     * κs_i·ℓ(t_s; xs_i, ys_i)} with ℓ(t; x, y) = log(x·σ(t) + y·(1 − σ(t))) in logit coordinates
     * (x, y given as logarithms). Indices 0..n are the F_j, then the four G terms, then the constant
     * λ̃1 + λ̃2.
     */
    private final class Terms {
      final int size = n + 6;
      final double[] constant = new double[size];
      final double[] sign = new double[size];
      final double[] kp = new double[size];
      final double[] xp = new double[size];
      final double[] yp = new double[size];
      final double[] ks = new double[size];
      final double[] xs = new double[size];
      final double[] ys = new double[size];

      Terms() {
        double inf = Double.NEGATIVE_INFINITY;
        for (int j = 0; j <= n; j++) {
          set(j, logW[j] - logScale, 1, alpha, logA[j], logB[j], 1 - alpha, logB[j], logA[j]);
        }
        double l1 = Math.log(lam1) - logBudget;
        double l2 = Math.log(lam2) - logBudget;
        set(n + 1, l1, -1, alpha, 0, inf, 1 - alpha, inf, 0);
        set(n + 2, l1, -1, alpha, inf, 0, 1 - alpha, 0, inf);
        set(n + 3, l2, -1, 1 - alpha, 0, inf, alpha, inf, 0);
        set(n + 4, l2, -1, 1 - alpha, inf, 0, alpha, 0, inf);
        set(n + 5, Math.log(lam1 + lam2), 1, 0, 0, 0, 0, 0, 0);
      }

      private void set(
          int i, double c, double sg, double kP, double xP, double yP, double kS, double xS, double yS) {
        constant[i] = c;
        sign[i] = c == Double.NEGATIVE_INFINITY ? 0 : sg;
        kp[i] = kP;
        xp[i] = xP;
        yp[i] = yP;
        ks[i] = kS;
        xs[i] = xS;
        ys[i] = yS;
      }

    /** log|term i| at logits (tp, ts). */
      double log(int i, double tp, double ts) {
        return constant[i] + piece(kp[i], xp[i], yp[i], tp) + piece(ks[i], xs[i], ys[i], ts);
      }
    }


    /**
     * A second-order (Taylor) bound on L/F* over a box with finite ends, the smallest of three:
     * the Taylor bound of all terms of L, and, for the largest positive and the largest negative
     * non-constant term A at the centre (the anchor), K + A·R with K = λ̃1 + λ̃2 the constant term
     * and R = Σ ±(term / A) bounded by its own Taylor bound (A ranges over [A_min, A_max] on the box;
     * K + A·R ≤ K + A_max·R̄ when R̄ ≥ 0, else K + A_min·R̄). The ratios vary slowly where a large term
     * of F nearly cancels a constraint term (their logit slopes nearly cancel), so this keeps the
     * cancellation that a bound on the terms apart loses. See {@link #taylor} for the expansion.
     */
    double taylorBound(double p0, double p1, double s0, double s1) {
      return taylorBound(axis(true, p0, p1), axis(false, s0, s1), Double.NEGATIVE_INFINITY);
    }

    /**
     * The least of the three Taylor bounds, or the first found at or below {@code floor} (the
     * anchored ones are tried first: they are usually the least).
     */
    private double taylorBound(Axis p, Axis s, double floor) {
      int size = terms.size;
      double[] constant = terms.constant;
      double[] sign = terms.sign;
      double best = Double.POSITIVE_INFINITY;
      int k = size - 1;
      double kConstant = sign[k] == 0 ? 0 : Math.exp(constant[k]);
      int bestPos = -1;
      int bestNeg = -1;
      double[] centre = new double[size];
      for (int i = 0; i < k; i++) {
        centre[i] = sign[i] == 0 ? Double.NEGATIVE_INFINITY : logAtCentre(i, p, s);
        if (sign[i] > 0 && (bestPos < 0 || centre[i] > centre[bestPos])) {
          bestPos = i;
        }
        if (sign[i] < 0 && (bestNeg < 0 || centre[i] > centre[bestNeg])) {
          bestNeg = i;
        }
      }
      for (int anchor : new int[] {bestPos, bestNeg}) {
        if (anchor < 0 || centre[anchor] == Double.NEGATIVE_INFINITY) {
          continue;
        }
        double[] rc = new double[k];
        for (int i = 0; i < k; i++) {
          rc[i] = constant[i] - constant[anchor];
        }
        double[] r = taylor(rc, sign, anchor, k, 2 * relErr, p, s, work);
        if (!(r[1] < Double.POSITIVE_INFINITY)) {
          continue;
        }
        double a0 = p.end(anchor, true);
        double a1 = p.end(anchor, false);
        double b0 = s.end(anchor, true);
        double b1 = s.end(anchor, false);
        double logA =
            r[1] >= 0
                ? constant[anchor] + Math.max(a0, a1) + Math.max(b0, b1) + relErr
                : constant[anchor] + Math.min(a0, a1) + Math.min(b0, b1) - relErr;
        double log = logA + r[0];
        double product;
        if (r[1] > 0) {
          product = log > 700 ? Double.POSITIVE_INFINITY : r[1] * Math.exp(log);
        } else {
          product = r[1] * Math.exp(Math.min(log, 700));
        }
        best = Math.min(best, kConstant * (1 + relErr) + product);
        if (best <= floor) {
          return best;
        }
      }
      return Math.min(best, scaledBack(taylor(constant, sign, -1, size, relErr, p, s, work)));
    }

    /** log|term i| at the centre of the box p × s. */
    private double logAtCentre(int i, Axis p, Axis s) {
      return terms.constant[i] + p.centre(i) + s.centre(i);
    }

    /**
     * An anchored bound on L/F* over a box with finite logit ends: L = T·B with T an anchor term and B
     * = Σ_i sign_i (term_i / T). Each log(term_i / T) is a sum of a function of t_p and one of t_s, so
     * by the mean value theorem it lies within (slope bound) × (half-width) of its value at the centre;
     * log T likewise. Then L ≤ T_max·B_max when B_max ≥ 0 and L ≤ T_min·B_max otherwise. Where a
     * large term of F nearly cancels a large constraint term (both of size e^{300} against F*), the
     * slopes of their ratio nearly cancel too, so this bound keeps the cancellation that the corner
     * bounds lose. Two anchors are tried: the largest positive and the largest negative term at the
     * centre.
     */
    private double anchoredBound(Axis p, Axis s, double floor) {
      double hp = 0.5 * (p.t1 - p.t0);
      double hs = 0.5 * (s.t1 - s.t0);
      double[] centre = new double[terms.size];
      int bestPos = -1;
      int bestNeg = -1;
      for (int i = 0; i < terms.size; i++) {
        centre[i] = terms.sign[i] == 0 ? Double.NEGATIVE_INFINITY : logAtCentre(i, p, s);
        if (terms.sign[i] > 0 && (bestPos < 0 || centre[i] > centre[bestPos])) {
          bestPos = i;
        }
        if (terms.sign[i] < 0 && (bestNeg < 0 || centre[i] > centre[bestNeg])) {
          bestNeg = i;
        }
      }
      double bound = Double.POSITIVE_INFINITY;
      for (int a : new int[] {bestPos, bestNeg}) {
        if (a >= 0 && centre[a] > Double.NEGATIVE_INFINITY) {
          bound = Math.min(bound, anchoredBound(a, centre, hp, hs, p, s));
          if (bound <= floor) {
            return bound;
          }
        }
      }
      return bound;
    }

    private double anchoredBound(int a, double[] centre, double hp, double hs, Axis p, Axis s) {
      Terms t = terms;
      double[] ratio = new double[2 * t.size];
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < t.size; i++) {
        if (t.sign[i] == 0) {
          ratio[2 * i] = Double.NEGATIVE_INFINITY;
          continue;
        }
        double radius =
            p.slope(t.kp[i], i, t.kp[a], a) * hp + s.slope(t.ks[i], i, t.ks[a], a) * hs + relErr;
        double r = centre[i] - centre[a];
        ratio[2 * i] = t.sign[i] > 0 ? r + radius : r - radius;
        ratio[2 * i + 1] = t.sign[i];
        max = Math.max(max, ratio[2 * i]);
      }
      if (max == Double.POSITIVE_INFINITY || Double.isNaN(max)) {
        return Double.POSITIVE_INFINITY;
      }
      double sum = 0;
      double magnitude = 0;
      for (int i = 0; i < ratio.length; i += 2) {
        double e = Math.exp(ratio[i] - max);
        sum += ratio[i + 1] * e;
        magnitude += e;
      }
      sum += magnitude * relErr;
      double anchorRadius = p.slope(0, a, -t.kp[a], a) * hp + s.slope(0, a, -t.ks[a], a) * hs + relErr;
      double logT = sum > 0 ? centre[a] + anchorRadius : centre[a] - anchorRadius;
      double log = logT + max + Math.log(Math.abs(sum));
      if (sum > 0) {
        return log > 700 ? Double.POSITIVE_INFINITY : Math.exp(log);
      }
      return sum == 0 ? 0 : -Math.exp(Math.min(log, 700));
    }

    /** max F/F* over the corners minus monotone lower bounds on the constraint sums. */
    private double firstOrderBound(Point[] c, double maxPhi) {
      Point low = c[0];
      Point high = c[3];
      double a = alpha;
      double g1 =
          LogMath.logAddExp(power(a, low.lx(), low.l1s()), power(a, high.l1x(), high.ls()))
              - logBudget;
      double g2 =
          LogMath.logAddExp(power(a, high.l1s(), high.lx()), power(a, low.ls(), low.l1x()))
              - logBudget;
      double[] terms = new double[8];
      int k = 0;
      k = put(terms, k, maxPhi, 1);
      k = put(terms, k, logLamSum, 1);
      k = put(terms, k, logLam1 + g1, -1);
      put(terms, k, logLam2 + g2, -1);
      return signedSumUpper(terms);
    }

    /** max over corners of F(v)/F* − Σ λ̃_i (tangent plane of G_i/E at the centre)(v) + Σ λ̃_i. */
    private double secondOrderBound(Point[] c, double[] phi, Point z) {
      double[][] t = tangent(z);
      double ll1 = logLam1;
      double ll2 = logLam2;
      double best = Double.NEGATIVE_INFINITY;
      double[] terms = new double[2 * 16];
      for (int i = 0; i < 4; i++) {
        double dp = c[i].x() - z.x();
        double ds = c[i].s() < 0.5 || z.s() < 0.5 ? c[i].s() - z.s() : Math.exp(z.l1s()) - Math.exp(c[i].l1s());
        double logDp = Math.log(Math.abs(dp));
        double logDs = Math.log(Math.abs(ds));
        int k = 0;
        k = put(terms, k, phi[i], 1);
        k = put(terms, k, logLamSum, 1);
        for (int g = 0; g < 2; g++) {
          double ll = g == 0 ? ll1 : ll2;
          double[] val = t[3 * g];
          double[] gp = t[3 * g + 1];
          double[] gs = t[3 * g + 2];
          for (int m = 0; m < 4; m += 2) {
            k = put(terms, k, ll + val[m], -val[m + 1]);
            k = put(terms, k, ll + gp[m] + logDp, -gp[m + 1] * Math.signum(dp));
            k = put(terms, k, ll + gs[m] + logDs, -gs[m + 1] * Math.signum(ds));
          }
        }
        best = Math.max(best, signedSumUpper(terms));
      }
      return best;
    }


    /**
     * An upper bound on Σ sign·e^{log} (pairs in {@code terms}), with a rounding margin of relErr
     * times the sum of magnitudes; +∞ when the sum cannot be placed (overflowing positive sum).
     */
    private double signedSumUpper(double[] terms) {
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < terms.length; i += 2) {
        max = Math.max(max, terms[i]);
      }
      if (max == Double.NEGATIVE_INFINITY) {
        return 0;
      }
      if (max == Double.POSITIVE_INFINITY) {
        boolean positiveInfinity = false;
        for (int i = 0; i < terms.length; i += 2) {
          positiveInfinity |= terms[i] == Double.POSITIVE_INFINITY && terms[i + 1] > 0;
        }
        return positiveInfinity ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      }
      double sum = 0;
      double magnitude = 0;
      for (int i = 0; i < terms.length; i += 2) {
        double t = Math.exp(terms[i] - max);
        sum += terms[i + 1] * t;
        magnitude += t;
      }
      double upper = sum + magnitude * relErr;
      if (upper <= 0) {
        return max > 700 ? 0 : upper * Math.exp(max);
      }
      return max > 700 ? Double.POSITIVE_INFINITY : upper * Math.exp(max);
    }
  }


  /** κ·log(x σ(t) + y (1 − σ(t))) for log x, log y (0 when κ = 0). */
  private static double piece(double kappa, double lx, double ly, double t) {
    return piece(kappa, lx, ly, logSigmoid(t), logSigmoid(-t));
  }

  /** {@link #piece(double, double, double, double)} from log σ(t) and log σ(−t). */
  private static double piece(
      double kappa, double lx, double ly, double logSigmoid, double logSigmoidNegated) {
    if (kappa == 0) {
      return 0;
    }
    return kappa * LogMath.logAddExp(lx + logSigmoid, ly + logSigmoidNegated);
  }

  /** σ(t + δ) for δ = log x − log y, with σ(+∞) = 1 and σ(−∞) = 0. */
  private static double shiftedSigmoid(double t, double lx, double ly) {
    if (lx == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (ly == Double.NEGATIVE_INFINITY) {
      return 1;
    }
    return sigmoid(t + lx - ly);
  }

  /** σ(z) = 1 / (1 + e^{−z}), evaluated without overflow. */
  private static double sigmoid(double z) {
    if (z >= 0) {
      return 1 / (1 + Math.exp(-z));
    }
    double e = Math.exp(z);
    return e / (1 + e);
  }

  /** σ′(u) = σ(u)σ(−u) = e^{−|u|} / (1 + e^{−|u|})². */
  private static double sigmoidSlope(double u) {
    double e = Math.exp(-Math.abs(u));
    return e / ((1 + e) * (1 + e));
  }

  /**
   * A second-order upper bound on S = Σ_{i &lt; count} sign_i e^{U_i} over a box with finite ends,
   * U_i = constant_i + (the t_p piece of term i minus that of the anchor) + (the same in t_s), the
   * pieces read from the box's intervals p and s (no anchor when {@code anchor} is −1), returned as {top, m} meaning S ≤ m·e^{top}. With c the centre and h the offset,
   * S(c + h) = S(c) + ∇S(c)·h + ½ hᵀ∇²S(ξ)h for some ξ in the box; each term's Hessian
   * e^{U}(∇U∇Uᵀ + ∇²U) is bounded over the box entry by entry, and the quadratic model v + g·h +
   * ½(H̄11 h1² + 2 M12 |h1 h2| + H̄22 h2²) is maximised exactly over the box. A term whose value
   * ranges over more than a factor 20 on the box, and whose value bound is cheaper than its share
   * of the model, is bounded by its extreme value instead. The overshoot is third order in the
   * width.
   *
   * @param err absolute error of each computed U_i
   * @param q scratch, at least {@code count} rows of 15, overwritten
   */
  private static double[] taylor(
      double[] constant,
      double[] sign,
      int anchor,
      int count,
      double err,
      Lagrangian.Axis p,
      Lagrangian.Axis s,
      double[][] q) {
    double tp = p.tc;
    double ts = s.tc;
    double hp = 0.5 * (p.t1 - p.t0);
    double hs = 0.5 * (s.t1 - s.t0);
    // per term: centre, low, high, then [dp range], [ds range], [dpp range], [dss range]
    double top = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < count; i++) {
      if (sign[i] == 0 || constant[i] == Double.NEGATIVE_INFINITY) {
        continue;
      }
      double[] r = q[i];
      p.derivativeRange(i, anchor, r, 3);
      s.derivativeRange(i, anchor, r, 5);
      p.secondDerivativeRange(i, anchor, r, 7);
      s.secondDerivativeRange(i, anchor, r, 9);
      p.valueRange(i, anchor, r, 11, 3);
      s.valueRange(i, anchor, r, 13, 5);
      r[0] = constant[i] + p.piecesAtCentre(i, anchor) + s.piecesAtCentre(i, anchor);
      r[1] = constant[i] + r[11] + r[13] - err;
      r[2] = constant[i] + r[12] + r[14] + err;
      top = Math.max(top, r[2]);
    }
    if (top == Double.NEGATIVE_INFINITY) {
      return new double[] {0, 0};
    }
    if (!Double.isFinite(top)) {
      return new double[] {0, Double.POSITIVE_INFINITY};
    }
    double value = 0;
    double gp = 0;
    double gs = 0;
    double magnitude = 0;
    double h11 = 0;
    double h22 = 0;
    double h12High = 0;
    double h12Low = 0;
    double apart = 0;
    for (int i = 0; i < count; i++) {
      double[] r = q[i];
      if (sign[i] == 0 || constant[i] == Double.NEGATIVE_INFINITY) {
        continue;
      }
      double sg = sign[i];
      double e = Math.exp(r[0] - top);
      double eLow = Math.exp(r[1] - top);
      double eHigh = Math.exp(r[2] - top);
      double dp = p.derivative(i, anchor);
      double ds = s.derivative(i, anchor);
      // Hessian entries over the box: e^U (U_p² + U_pp), e^U U_p U_s, e^U (U_s² + U_ss)
      double sqpLo = r[3] <= 0 && r[4] >= 0 ? 0 : Math.min(r[3] * r[3], r[4] * r[4]);
      double sqpHi = Math.max(r[3] * r[3], r[4] * r[4]);
      double sqsLo = r[5] <= 0 && r[6] >= 0 ? 0 : Math.min(r[5] * r[5], r[6] * r[6]);
      double sqsHi = Math.max(r[5] * r[5], r[6] * r[6]);
      double qpLo = sqpLo + r[7];
      double qpHi = sqpHi + r[8];
      double qsLo = sqsLo + r[9];
      double qsHi = sqsHi + r[10];
      double c1 = r[3] * r[5];
      double c2 = r[3] * r[6];
      double c3 = r[4] * r[5];
      double c4 = r[4] * r[6];
      double crossLo = Math.min(Math.min(c1, c2), Math.min(c3, c4));
      double crossHi = Math.max(Math.max(c1, c2), Math.max(c3, c4));
      double e11Lo = qpLo >= 0 ? eLow * qpLo : eHigh * qpLo;
      double e11Hi = qpHi >= 0 ? eHigh * qpHi : eLow * qpHi;
      double e22Lo = qsLo >= 0 ? eLow * qsLo : eHigh * qsLo;
      double e22Hi = qsHi >= 0 ? eHigh * qsHi : eLow * qsHi;
      double e12Lo = crossLo >= 0 ? eLow * crossLo : eHigh * crossLo;
      double e12Hi = crossHi >= 0 ? eHigh * crossHi : eLow * crossHi;
      double curvature =
          Math.max(Math.abs(e11Lo), Math.abs(e11Hi)) * hp * hp
              + 2 * Math.max(Math.abs(e12Lo), Math.abs(e12Hi)) * hp * hs
              + Math.max(Math.abs(e22Lo), Math.abs(e22Hi)) * hs * hs;
      // a term that varies too fast for its curvature to pay off is bounded by its extreme value
      double taylorCost = e * (Math.abs(dp) * hp + Math.abs(ds) * hs) + 0.5 * curvature;
      double valueCost = sg > 0 ? eHigh - e : e - eLow;
      if (valueCost <= taylorCost && eHigh >= 20 * e) {
        apart += sg > 0 ? eHigh : -eLow;
        magnitude += eHigh;
        continue;
      }
      value += sg * e;
      gp += sg * e * dp;
      gs += sg * e * ds;
      h11 += sg > 0 ? e11Hi : -e11Lo;
      h22 += sg > 0 ? e22Hi : -e22Lo;
      h12High += sg > 0 ? e12Hi : -e12Lo;
      h12Low += sg > 0 ? e12Lo : -e12Hi;
      magnitude += e * (1 + (Math.abs(dp) + 1) * hp + (Math.abs(ds) + 1) * hs) + curvature;
    }
    double m12 = Math.max(Math.abs(h12High), Math.abs(h12Low));
    double model =
        maxQuadratic(value, gp, gs, h11, m12, h22, hp, hs)
            + apart
            + 4 * (err + 0x1p-40) * magnitude;
    return new double[] {top, Double.isNaN(model) ? Double.POSITIVE_INFINITY : model};
  }

  /** m·e^{top} for a {top, m} pair of {@link #taylor}, +∞ when a positive value overflows. */
  private static double scaledBack(double[] bound) {
    if (bound[1] <= 0) {
      return bound[0] > 700 ? 0 : bound[1] * Math.exp(bound[0]);
    }
    return bound[0] > 700 ? Double.POSITIVE_INFINITY : bound[1] * Math.exp(bound[0]);
  }

  /**
   * The maximum over |h1| ≤ hp, |h2| ≤ hs of v + g1 h1 + g2 h2 + ½(a h1² + 2m|h1 h2| + b h2²), m ≥ 0:
   * in each quadrant a quadratic over a rectangle, largest at a corner, at the stationary point of
   * an edge, or (when concave) at its interior stationary point.
   */
  static double maxQuadratic(
      double v, double g1, double g2, double a, double m, double b, double hp, double hs) {
    double best = Double.NEGATIVE_INFINITY;
    for (int q = 0; q < 4; q++) {
      double u1 = (q & 1) == 0 ? g1 : -g1;
      double u2 = (q & 2) == 0 ? g2 : -g2;
      double[] xs = {0, hp};
      double[] ys = {0, hs};
      for (double x : xs) {
        best = Math.max(best, quadratic(v, u1, u2, a, m, b, x, 0));
        best = Math.max(best, quadratic(v, u1, u2, a, m, b, x, hs));
        if (b < 0) {
          double y = Math.max(0, Math.min(hs, -(u2 + m * x) / b));
          best = Math.max(best, quadratic(v, u1, u2, a, m, b, x, y));
        }
      }
      for (double y : ys) {
        if (a < 0) {
          double x = Math.max(0, Math.min(hp, -(u1 + m * y) / a));
          best = Math.max(best, quadratic(v, u1, u2, a, m, b, x, y));
        }
      }
      double det = a * b - m * m;
      if (a < 0 && det > 0) {
        double x = (-u1 * b + u2 * m) / det;
        double y = (-a * u2 + m * u1) / det;
        if (x >= 0 && x <= hp && y >= 0 && y <= hs) {
          best = Math.max(best, quadratic(v, u1, u2, a, m, b, x, y));
        }
      }
    }
    return best;
  }

  private static double quadratic(
      double v, double u1, double u2, double a, double m, double b, double x, double y) {
    return v + u1 * x + u2 * y + 0.5 * (a * x * x + 2 * m * x * y + b * y * y);
  }

  private static int put(double[] terms, int k, double log, double sign) {
    terms[k] = sign == 0 || Double.isNaN(log) ? Double.NEGATIVE_INFINITY : log;
    terms[k + 1] = sign;
    return k + 2;
  }

  /**
   * Logit width; an interval with one infinite end counts as 2, or as 0 once its finite end is
   * beyond ±800 (masses below e^{−800}, left to the bounds).
   */
  private static double width(double lo, double hi) {
    if (lo == Double.NEGATIVE_INFINITY && hi == Double.POSITIVE_INFINITY) {
      return Double.POSITIVE_INFINITY;
    }
    if (lo == Double.NEGATIVE_INFINITY || hi == Double.POSITIVE_INFINITY) {
      return Math.abs(lo == Double.NEGATIVE_INFINITY ? hi : lo) > 800 ? 0 : 2;
    }
    return hi - lo;
  }

  /** Logit midpoint; towards an infinite end the step doubles (masses e^{−2^m} are reached fast). */
  private static double splitPoint(double lo, double hi) {
    if (lo == Double.NEGATIVE_INFINITY && hi == Double.POSITIVE_INFINITY) {
      return 0;
    }
    if (lo == Double.NEGATIVE_INFINITY) {
      return hi - 2 * Math.max(1, Math.abs(hi));
    }
    if (hi == Double.POSITIVE_INFINITY) {
      return lo + 2 * Math.max(1, Math.abs(lo));
    }
    return 0.5 * (lo + hi);
  }

  private static double middle(double lo, double hi) {
    return splitPoint(lo, hi);
  }

  /** log(1 / (1 + e^{−t})), accurate for all t. */
  private static double logSigmoid(double t) {
    if (t == Double.NEGATIVE_INFINITY) {
      return Double.NEGATIVE_INFINITY;
    }
    if (t == Double.POSITIVE_INFINITY) {
      return 0;
    }
    return t < 0 ? t - Math.log1p(Math.exp(t)) : -Math.log1p(Math.exp(-t));
  }

  private static double times(int k, double log) {
    return k == 0 ? 0 : k * log;
  }
}
