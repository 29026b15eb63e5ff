package dev.tradeoff.ensemble.pate;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.ensemble.gnmax.GnMax;
import java.util.Arrays;

/**
 * Smooth sensitivity of the data-dependent RDP of PATE's aggregators at one order λ (Papernot,
 * Song, Mironov, Raghunathan, Talwar and Erlingsson, <i>Scalable private learning with PATE</i>,
 * ICLR 2018, Section 4 and Appendix B.4): the local sensitivity of the data-dependent bound at every
 * distance d (how much one teacher's vote can move it on a histogram d teachers away), the β-smooth
 * sensitivity max_d e^{−βd} LS(d) of Nissim, Raskhodnikova and Smith (STOC 2007), and the RDP of
 * the Gaussian noise scaled by it (GNSS, the paper's Theorem 23).
 *
 * <p>Distances are in teachers: two histograms of the same K teachers are at distance d when d
 * teachers voted differently. The local sensitivity at distance d is an upper bound on
 * max{|f(D′) − f(D″)| : D′ at distance ≤ d from D, D″ a neighbour of D′}; since the smooth
 * sensitivity takes the discounted maximum over d, a bound for distance exactly d is enough.
 *
 * <p>For GNMax the bound is that of the paper's Algorithms 3–5 (their Proposition 13), whose proof
 * needs conditions C5 and C6 on σ, the number of classes m and λ (Appendix B.4.2): the bound β(q) of
 * Theorem 6 is non-decreasing in q below q₀, and β(b_u(q)) − β(q) is non-decreasing below b_l(q₀).
 * {@link Gnmax#conditionsHold()} checks them numerically on a grid of q; a release refuses σ, m, λ
 * where they fail. q₀ is where Theorem 6 stops beating the data-independent λ/σ²; b_u and b_l bound
 * the q of a neighbouring histogram from above and below ((m − 1)/2 · erfc(erfc⁻¹(2q/(m−1)) ∓ 1/σ),
 * their Proposition 12).
 */
public final class SmoothSensitivity {

  /** Points of the grid of log q on which C5 and C6 are checked. */
  static final int CONDITION_GRID = 2000;

  private SmoothSensitivity() {}

  /**
   * The β-smooth upper bound max_d e^{−βd} LS(d) on the local sensitivity (Nissim, Raskhodnikova
   * and Smith 2007, Definition 2.1 and Proposition 2.2): SS(D) ≤ e^β SS(D′) for neighbours.
   *
   * @param beta β &gt; 0
   * @param localSensitivities LS(d) for d = 0, 1, … (each ≥ 0)
   */
  public static double smooth(double beta, double[] localSensitivities) {
    Require.positive("beta", beta);
    Require.nonNull("localSensitivities", localSensitivities);
    double best = 0;
    for (int d = 0; d < localSensitivities.length; d++) {
      best = Math.max(best, localSensitivities[d] * Math.exp(-beta * d));
    }
    return best;
  }

  /**
   * The RDP at order λ of GNSS, f(D) + SS_β(D)·N(0, σ²) with SS_β a β-smooth upper bound on f's
   * local sensitivity (Papernot et al. 2018, Theorem 23): λ e^{2β}/σ² + (βλ − ½ log(1 − 2λβ))/(λ −
   * 1), for 1 &lt; λ &lt; 1/(2β).
   */
  public static double gnssRdp(double beta, double sigma, double order) {
    Require.positive("beta", beta);
    Require.positive("sigma", sigma);
    Require.renyiOrder("order", order);
    Require.that(2 * order * beta < 1, "beta", "must be < 1/(2 order) = " + 1 / (2 * order)
        + " (Theorem 23 needs 1 < order < 1/(2 beta))", beta);
    return order * Math.exp(2 * beta) / (sigma * sigma)
        + (beta * order - 0.5 * Math.log1p(-2 * order * beta)) / (order - 1);
  }

  /**
   * Local sensitivities of the threshold check's data-dependent RDP (Theorem 6 with σ replaced by
   * √2·σ₁ and q = min(Pr[answer], Pr[abstain]); {@link PateAggregator#checkRdp}) at distances d =
   * 0, …, K − 1. The bound depends on the votes only through v = max_j n_j, an integer in [0, K]
   * that one teacher moves by at most one, so LS at v is the larger change to v ± 1, and at
   * distance d the larger of LS at v₀ ± d.
   *
   * @param maxCount v₀ = max_j n_j of the query
   * @param teachers K
   */
  public static double[] threshold(int maxCount, int teachers, double threshold, double sigma1,
      double order) {
    Require.positive("teachers", teachers);
    Require.inClosedRange("maxCount", maxCount, 0, teachers);
    double[] rdp = new double[teachers + 1];
    for (int v = 0; v <= teachers; v++) {
      rdp[v] = PateAggregator.checkRdp(v, threshold, sigma1, order);
    }
    double[] ls = new double[teachers];
    for (int d = 0; d < Math.max(maxCount, teachers - maxCount); d++) {
      double up = maxCount + d <= teachers ? stepChange(rdp, maxCount + d) : 0;
      double down = maxCount - d >= 0 ? stepChange(rdp, maxCount - d) : 0;
      ls[d] = Math.max(up, down);
    }
    return ls;
  }

  private static double stepChange(double[] rdp, int v) {
    double change = 0;
    if (v > 0) {
      change = Math.abs(rdp[v - 1] - rdp[v]);
    }
    if (v < rdp.length - 1) {
      change = Math.max(change, Math.abs(rdp[v + 1] - rdp[v]));
    }
    return change;
  }

  /**
   * The GNMax data-dependent RDP at one (σ, λ) and m classes, with the constants of its smooth
   * sensitivity analysis (Papernot et al. 2018, Appendix B.4): log q₀, below which Theorem 6 beats
   * λ/σ², and log q₁ = log b_l(q₀).
   */
  public static final class Gnmax {

    private final double sigma;
    private final double order;
    private final int classes;
    private final double logQ0;
    private final double logQ1;

    /**
     * @param sigma σ₂ &gt; 0
     * @param order λ &gt; 1
     * @param classes m ≥ 2
     */
    public Gnmax(double sigma, double order, int classes) {
      this.sigma = Require.positive("sigma", sigma);
      this.order = Require.renyiOrder("order", order);
      Require.that(classes >= 2, "classes", "must be >= 2", classes);
      this.classes = classes;
      this.logQ0 = logQ0(sigma, order);
      this.logQ1 = logLowerNeighbour(logQ0);
    }

    /** log q₀. */
    public double logQ0() {
      return logQ0;
    }

    /** log q₁ = log b_l(q₀). */
    public double logQ1() {
      return logQ1;
    }

    /**
     * β(q): Theorem 6's bound below q₀, the data-independent λ/σ² from q₀ up (0 at q = 0, when
     * the outcome is fixed).
     */
    public double rdp(double logQ) {
      if (logQ == Double.NEGATIVE_INFINITY) {
        return 0;
      }
      return logQ >= logQ0 ? order / (sigma * sigma) : GnMax.theorem6Bound(logQ, sigma, order);
    }

    /**
     * log b_l(q) = log((m − 1)/2 · erfc(erfc⁻¹(2q/(m − 1)) + 1/σ)): no neighbour of a histogram
     * with Proposition 7's q has a smaller one (Papernot et al. 2018, Proposition 12). With z =
     * Φ̄⁻¹(q/(m − 1)) it is (m − 1) Φ̄(z + √2/σ).
     */
    public double logLowerNeighbour(double logQ) {
      double z = StandardNormal.inverseSurvival(Math.exp(logQ) / (classes - 1));
      return Math.log(classes - 1) + StandardNormal.logCdf(-(z + Math.sqrt(2) / sigma));
    }

    /** log b_u(q) = log min(1, (m − 1) Φ̄(z − √2/σ)): the largest q of a neighbour. */
    public double logUpperNeighbour(double logQ) {
      double z = StandardNormal.inverseSurvival(Math.exp(logQ) / (classes - 1));
      return Math.min(0, Math.log(classes - 1) + StandardNormal.logCdf(-(z - Math.sqrt(2)
          / sigma)));
    }

    /**
     * An upper bound on the local sensitivity of β at a histogram whose Proposition 7 bound is q
     * (Papernot et al. 2018, Algorithm 3): max(β(b_u(q)) − β(q), β(q) − β(b_l(q))), with q moved
     * to q₁ when it lies in [q₁, q₀] (where the bound is largest).
     */
    public double localSensitivity(double logQ) {
      double l = logQ1 <= logQ && logQ <= logQ0 ? logQ1 : logQ;
      double at = rdp(l);
      return Math.max(rdp(logUpperNeighbour(l)) - at, at - rdp(logLowerNeighbour(l)));
    }

    /**
     * LS at distances d = 0, …, K − 1 of a query's GNMax data-dependent RDP (Papernot et al. 2018,
     * Algorithms 4 and 5 in O(K·m)): from the histogram, d teachers moved towards the plateau [q₁,
     * q₀] where the local sensitivity is largest — from the runner-up to the top class when q &gt;
     * q₀, from the top to the runner-up when q &lt; q₁ — and the plateau's value once it is
     * reached.
     *
     * @param counts the query's histogram over the m classes
     */
    public double[] localSensitivities(int[] counts) {
      Require.nonNull("counts", counts);
      Require.that(counts.length == classes, "classes of counts", "must be " + classes,
          counts.length);
      int teachers = Arrays.stream(counts).sum();
      Require.positive("teachers (sum of counts)", teachers);
      double logQ = GnMax.logQ(counts, sigma);
      double[] ls = new double[teachers];
      Arrays.fill(ls, localSensitivity(logQ1));
      if (logQ1 <= logQ && logQ <= logQ0) {
        return ls;
      }
      int[] v = counts.clone();
      Arrays.sort(v);
      reverse(v);
      ls[0] = localSensitivity(logQ);
      boolean towardsConsensus = logQ > logQ0;
      for (int d = 1; towardsConsensus ? logQ > logQ0 && v[1] > 0 : logQ < logQ1; d++) {
        if (towardsConsensus) {
          v[0]++;
          v[1]--;
          for (int i = 1; i < v.length - 1 && v[i] < v[i + 1]; i++) {
            int t = v[i];
            v[i] = v[i + 1];
            v[i + 1] = t;
          }
        } else {
          // v[1] stays ≤ v[0]: a tie would give q ≥ q₁, which ends the walk first
          v[0]--;
          v[1]++;
        }
        logQ = GnMax.logQ(v, sigma);
        ls[d] = localSensitivity(logQ);
      }
      return ls;
    }

    /**
     * Conditions C5 and C6 of Papernot et al. 2018 (Appendix B.4.2), checked on {@value
     * SmoothSensitivity#CONDITION_GRID} points of log q: β is non-decreasing on (0, q₀) and β(b_u(q))
     * − β(q) is non-decreasing on (0, b_l(q₀)), each over log q from 20 times the interval's upper
     * end (or −600) to that end. A numerical check, as theirs is (a bounded minimisation of the
     * symbolic derivative).
     */
    public boolean conditionsHold() {
      return nonDecreasing(logQ0, false) && nonDecreasing(logQ1, true);
    }

    private boolean nonDecreasing(double upper, boolean difference) {
      double lower = Math.max(20 * upper, -600);
      double previous = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < CONDITION_GRID; i++) {
        // just below the upper end: the bound itself, not λ/σ², at log q₀
        double logQ = lower + (upper - lower) * i / CONDITION_GRID;
        double beta = GnMax.theorem6Bound(logQ, sigma, order);
        double value = difference
            ? GnMax.theorem6Bound(logUpperNeighbour(logQ), sigma, order) - beta : beta;
        if (!(value >= previous - 1e-12 * Math.abs(previous))) {
          return false;
        }
        previous = value;
      }
      return true;
    }

    private static void reverse(int[] v) {
      for (int i = 0, j = v.length - 1; i < j; i++, j--) {
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
      }
    }

    /**
     * log q₀: where Theorem 6's bound meets λ/σ² (Papernot et al. 2018, Appendix B.4), by
     * bisection to the last bit between a point where the bound is valid and above λ/σ² and one
     * where it is below; the bound's validity conditions hold at and below the start point
     * min(−(1 + 1/σ)², −((λ − 0.99)/σ)², −1/σ²).
     */
    static double logQ0(double sigma, double order) {
      double data = order / (sigma * sigma);
      double hi = Math.min(-Math.pow(1 + 1 / sigma, 2),
          Math.min(-Math.pow((order - 0.99) / sigma, 2), -1 / (sigma * sigma)));
      if (GnMax.theorem6Bound(hi, sigma, order) < data) {
        return hi;
      }
      double lo = 2 * hi;
      while (GnMax.theorem6Bound(lo, sigma, order) > data) {
        Require.that(lo > -1e4, "sigma", "gives no q0 above exp(-1e4) at order " + order, sigma);
        lo *= 1.5;
      }
      // invariant: bound(lo) <= data < bound(hi)
      while (true) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) {
          return lo;
        }
        if (GnMax.theorem6Bound(mid, sigma, order) > data) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
    }
  }
}
