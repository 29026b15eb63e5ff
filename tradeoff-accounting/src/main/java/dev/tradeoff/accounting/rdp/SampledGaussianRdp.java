package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.Arrays;

/**
 * Rényi DP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019, "Rényi
 * Differential Privacy of the Sampled Gaussian Mechanism"), under add/remove-one neighbouring, for
 * sampling rate q and noise σ on a sensitivity-1 query.
 *
 * <p>With μ₀ = N(0, σ²), μ₁ = N(1, σ²) and the mixture μ = (1 − q)μ₀ + qμ₁, the paper shows (its
 * Section 3: of the two directions, D_α(μ‖μ₀) dominates D_α(μ₀‖μ)) that the RDP at order α is
 * D_α(μ‖μ₀) = log(A_α)/(α − 1) with A_α =
 * E_{z∼μ₀}[((1 − q) + q μ₁(z)/μ₀(z))^α]. A_α is evaluated exactly:
 *
 * <ul>
 *   <li>integer α (Section 3.2): the binomial expansion A_α = Σ_{k=0}^{α} C(α, k) (1 − q)^{α−k}
 *       q^k exp((k² − k)/(2σ²)), every term positive, summed in log space;
 *   <li>fractional α (Section 3.3): split the integral at z₀ = σ² log(1/q − 1) + 1/2, where (1 − q)μ₀
 *       = qμ₁, and expand each side in the generalized binomial series that converges there:
 *       <pre>
 *   A_α = Σ_{k≥0} C(α, k) (1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} Φ((z₀ − k)/σ)
 *       + Σ_{k≥0} C(α, k) q^{α−k} (1−q)^k e^{((α−k)²−(α−k))/(2σ²)} Φ((α − k − z₀)/σ)</pre>
 *       (μ₀ (μ₁/μ₀)^j = e^{(j²−j)/(2σ²)} N(j, σ²)). Generalized coefficients change sign past k =
 *       α, so positive and negative terms are summed separately in log space and subtracted once.
 *       The series is cut when a term falls 30 nats below the running sum, and the magnitude of the
 *       last term is added (past k = α the series alternates with decreasing terms, so its tail is
 *       bounded by that term): truncation rounds up, by at most about 2e−13 relative in A_α.
 * </ul>
 *
 * Accuracy: integer orders, an absolute error of log A_α of a few u·α(|log q| + 1) (u = 2^−53;
 * the parts k log q and (α − k) log(1 − q) of each log-term reach that size: about 1e−11 at
 * α = 4096, q = 10^−3); fractional orders, an upward bias of at most about 2e−13/(α − 1) absolute
 * from truncation plus rounding of about 1e−16/(α − 1) (log A_α is formed from sums near 1).
 */
public final class SampledGaussianRdp {

  /**
   * The series stops once a term is this many nats below the running sum (e^{−30} ≈ 9e−14). Near
   * α = 1 with q &gt; 1/2 the terms decay only like k^{−α−2}, so a few thousand terms are needed.
   */
  private static final double TRUNCATION_NATS = 30;

  private static final int MAX_TERMS = 1_000_000;

  private SampledGaussianRdp() {}

  /**
   * ε(α) of the Poisson-subsampled Gaussian.
   *
   * @param q sampling probability in [0, 1]
   * @param sigma noise σ &gt; 0
   * @param alpha order α &gt; 1
   */
  public static double epsilon(double q, double sigma, double alpha) {
    Require.probability("q", q);
    Require.positive("sigma", sigma);
    Require.renyiOrder("alpha", alpha);
    if (q == 0) {
      return 0;
    }
    if (q == 1) {
      return MechanismRdp.gaussian(sigma, alpha);
    }
    double logA =
        isInteger(alpha) ? logAInteger(q, sigma, (int) alpha) : logAFractional(q, sigma, alpha);
    return Math.max(0, logA / (alpha - 1));
  }

  static boolean isInteger(double alpha) {
    return alpha == Math.rint(alpha) && alpha <= Integer.MAX_VALUE - 1;
  }

  /**
   * Orders up to this are summed term by term; above it, ranges of terms that are provably
   * negligible are replaced by an upper bound (see {@link #logAInteger}).
   */
  private static final int DIRECT_UP_TO = 16;

  /** Ranges of at most this many terms that are not negligible are summed term by term. */
  private static final int LEAF = 16;

  /**
   * A range is skipped when its bound is this many nats below a lower bound on the whole sum: each
   * skipped range then changes A_α − 1 by at most e^{−50} ≈ 2e−22 relative.
   */
  private static final double NEGLIGIBLE_NATS = 50;

  /**
   * log A_α for integer α ≥ 2 (MTZ19 Section 3.2). Because the binomial weights sum to 1, A_α − 1 =
   * Σ_{k=2}^{α} C(α, k)(1 − q)^{α−k} q^k (e^{(k²−k)/(2σ²)} − 1) (the k = 0, 1 terms vanish), a sum of
   * positive terms; log A_α = log1p(A_α − 1) keeps its accuracy (see the class comment) even when
   * ε(α) is tiny.
   *
   * <p>Early stopping (α &gt; {@value #DIRECT_UP_TO}): write log t_k = L(k) + log(e^{Q(k)} − 1) with
   * L(k) = log C(α, k) + k log q + (α − k) log(1 − q) and Q(k) = (k² − k)/(2σ²). L has
   * non-increasing forward differences ΔL(k) = log((α − k)/(k + 1)) + log(q/(1 − q)), so for k ≥
   * k₁: log t_k ≤ U(k) = L(k₁) + (k − k₁)ΔL(k₁) + Q(k), which is convex in k; on a range [k₁, k₂]
   * every term is therefore at most e^{max(U(k₁), U(k₂))}. The exact terms at k = 2, at k = α and
   * at the binomial mode k ≈ αq give a lower bound on the sum. [2, α] is cut into a leaf around the
   * mode, a leaf at the top and the gaps between, and each range is bisected further as needed: a
   * range whose bound (times its length) lies more than {@value #NEGLIGIBLE_NATS} nats below that
   * lower bound is not summed and its bound is added instead (the safe direction); ranges of at
   * most {@value #LEAF} terms that are not negligible are summed exactly. Each skipped range raises
   * A_α − 1 by at most e^{−50} relative, and there are at most 2α/{@value #LEAF} + 8 of them, so the
   * accuracy statement above is unchanged. The cost drops from α terms to a few dozen bounds and
   * the leaves around the binomial bulk (k ≈ αq) and the top (k ≈ α), where e^{Q(k)} dominates.
   */
  static double logAInteger(double q, double sigma, int alpha) {
    IntegerSeries series = new IntegerSeries(q, sigma, alpha);
    if (alpha <= DIRECT_UP_TO) {
      double[] terms = new double[alpha - 1];
      series.exactTerms(2, alpha, terms, 0);
      return LogMath.logAddExp(0, LogMath.logSumExp(terms));
    }
    int mode = (int) Math.min(alpha, Math.max(2, Math.round(alpha * q)));
    double lower =
        LogMath.logAddExp(
            LogMath.logAddExp(series.logTerm(2), series.logTerm(alpha)), series.logTerm(mode));
    double[] terms = new double[alpha - 1 + 2 * (alpha / LEAF + 8)];
    // first cuts: a leaf around the mode and one at the top, where the large terms are
    int[] cuts = {2, mode - LEAF / 2, mode + LEAF / 2, alpha - LEAF + 1, alpha + 1};
    for (int c = 0; c < cuts.length; c++) {
      cuts[c] = Math.min(alpha + 1, Math.max(2, cuts[c]));
    }
    Arrays.sort(cuts);
    int n = 0;
    for (int c = 0; c + 1 < cuts.length; c++) {
      if (cuts[c] < cuts[c + 1]) {
        n = series.sum(cuts[c], cuts[c + 1] - 1, lower - NEGLIGIBLE_NATS, terms, n);
      }
    }
    return LogMath.logAddExp(0, LogMath.logSumExp(Arrays.copyOf(terms, n)));
  }

  /** The terms of MTZ19 Section 3.2 at one integer order, in log space. */
  private static final class IntegerSeries {
    private final int alpha;
    private final double logQ;
    private final double log1mQ;
    private final double twoSigmaSq;

    IntegerSeries(double q, double sigma, int alpha) {
      this.alpha = alpha;
      this.logQ = Math.log(q);
      this.log1mQ = Math.log1p(-q);
      this.twoSigmaSq = 2 * sigma * sigma;
    }

    /** L(k): the log binomial weight. */
    double logWeight(int k) {
      return LogMath.logBinomial(alpha, k) + k * logQ + (alpha - k) * log1mQ;
    }

    double q(int k) {
      return ((double) k * k - k) / twoSigmaSq;
    }

    double logTerm(int k) {
      return logWeight(k) + logExpm1(q(k));
    }

    /**
     * Writes the log-terms of [from, to] (exact, or one bound per negligible range) into {@code
     * into} from {@code offset}; returns the new end.
     */
    int sum(int from, int to, double negligible, double[] into, int offset) {
      double l1 = logWeight(from);
      double slope = Math.log((double) (alpha - from) / (from + 1)) + logQ - log1mQ;
      double u =
          Math.max(l1 + q(from), l1 + (to - from) * slope + q(to)) + Math.log(to - from + 1.0);
      u += 1e-9 + 1e-13 * Math.abs(u); // covers the rounding of the bound itself
      if (u < negligible) {
        into[offset] = u;
        return offset + 1;
      }
      if (to - from < LEAF) {
        exactTerms(from, to, into, offset);
        return offset + to - from + 1;
      }
      int middle = (from + to) >>> 1;
      int end = sum(from, middle, negligible, into, offset);
      return sum(middle + 1, to, negligible, into, end);
    }

    /**
     * Writes log t_k for k = from..to into {@code into} starting at {@code offset}. log C(α, k) is
     * updated by C(α, k+1) = C(α, k)(α − k)/(k + 1) and re-anchored at exact values every 64 steps
     * so that rounding does not accumulate over thousands of terms.
     */
    void exactTerms(int from, int to, double[] into, int offset) {
      double logCoef = LogMath.logBinomial(alpha, from);
      for (int k = from; k <= to; k++) {
        if (k != from && (k & 63) == 0) {
          logCoef = LogMath.logBinomial(alpha, k);
        }
        into[offset + k - from] = logCoef + k * logQ + (alpha - k) * log1mQ + logExpm1(q(k));
        logCoef += Math.log((double) (alpha - k) / (k + 1));
      }
    }
  }

  /** log(e^c − 1) for c &gt; 0; c itself above 40, where the difference is below an ulp. */
  private static double logExpm1(double c) {
    return c > 40 ? c : c + LogMath.log1mExp(-c);
  }

  /** log A_α for fractional α (MTZ19 Section 3.3). */
  static double logAFractional(double q, double sigma, double alpha) {
    double twoSigmaSq = 2 * sigma * sigma;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double z0 = sigma * sigma * (Math.log(1 / q - 1)) + 0.5;
    LogSum pos = new LogSum();
    LogSum neg = new LogSum();
    double logAbsCoef = 0; // log |C(α, 0)|
    int sign = 1;
    for (int k = 0; k < MAX_TERMS; k++) {
      double j = alpha - k;
      double logS0 =
          logAbsCoef
              + (alpha - k) * log1mQ
              + k * logQ
              + ((double) k * k - k) / twoSigmaSq
              + StandardNormal.logCdf((z0 - k) / sigma);
      double logS1 =
          logAbsCoef
              + j * logQ
              + k * log1mQ
              + (j * j - j) / twoSigmaSq
              + StandardNormal.logCdf((j - z0) / sigma);
      LogSum signed = sign > 0 ? pos : neg;
      signed.add(logS0);
      signed.add(logS1);
      // an upper bound on the log of this term, |S0| + |S1| ≤ 2 max
      double termUpper = Math.max(logS0, logS1) + LN_2;
      // pos.max ≤ log(pos): comparing with it stops no earlier than comparing with log(pos)
      if (k > alpha && termUpper < pos.max - TRUNCATION_NATS) {
        // bound the remaining alternating tail by (a bound on) the last term, rounding up
        pos.add(termUpper);
        double logPos = pos.log();
        double logNeg = neg.log();
        return logNeg >= logPos ? Double.NEGATIVE_INFINITY : LogMath.logSubExp(logPos, logNeg);
      }
      // C(α, k+1) = C(α, k) (α − k)/(k + 1)
      logAbsCoef += Math.log(Math.abs(alpha - k)) - Math.log(k + 1.0);
      if (alpha - k < 0) {
        sign = -sign;
      }
    }
    throw new ArithmeticException(
        "the sampled-Gaussian series at alpha=" + alpha + ", q=" + q + ", sigma=" + sigma
            + " did not converge in " + MAX_TERMS + " terms");
  }

  private static final double LN_2 = Math.log(2);

  /**
   * A running log Σ e^{x_i} with one exp per added term: the sum is kept relative to the largest
   * x so far and rescaled when a larger one arrives (the streaming form of log-sum-exp).
   */
  private static final class LogSum {
    private double max = Double.NEGATIVE_INFINITY;
    private double scaled; // Σ e^{x_i − max}

    void add(double x) {
      if (x == Double.NEGATIVE_INFINITY || max == Double.POSITIVE_INFINITY) {
        return;
      }
      if (x <= max) {
        scaled += Math.exp(x - max);
      } else {
        scaled = scaled * Math.exp(max - x) + 1;
        max = x;
      }
    }

    double log() {
      return max == Double.NEGATIVE_INFINITY ? max : max + Math.log(scaled);
    }
  }

}
