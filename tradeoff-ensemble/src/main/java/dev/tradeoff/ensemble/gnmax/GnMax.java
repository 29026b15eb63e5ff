package dev.tradeoff.ensemble.gnmax;

import dev.tradeoff.accounting.calibration.GnMaxRdpGridSearch;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.accounting.numerics.StandardNormal;
import java.util.random.RandomGenerator;

/**
 * GNMax (Papernot et al., <i>Scalable private learning with PATE</i>, ICLR 2018, Section 4.1), the
 * non-private-teacher baseline of [DaRRM24, Section 6.2]: argmax_i {n_i + N(0, σ²)} over the per-class
 * vote counts n_i. It is (λ, λ/σ²)-RDP for every λ ≥ 1; σ is calibrated to a target (ε, δ) by the
 * grid search of [DaRRM24, Appendix D.2.1] ({@link GnMaxRdpGridSearch}).
 *
 * @param sigma σ &gt; 0
 * @param lambda the RDP order λ &gt; 1 the calibration chose
 */
public record GnMax(double sigma, double lambda) {

  public GnMax {
    Require.positive("sigma", sigma);
    Require.renyiOrder("lambda", lambda);
  }

  /** σ from the RDP grid search of [DaRRM24, Appendix D.2.1] for the per-query target (ε, δ). */
  public static GnMax calibrated(ApproxDp target) {
    GnMaxRdpGridSearch.Result r = GnMaxRdpGridSearch.search(target);
    return new GnMax(r.sigma(), r.lambda());
  }

  /** The noisy argmax; ties between noisy counts have probability 0. */
  public int aggregate(int[] counts, RandomGenerator random) {
    return noisyArgmax(counts, sigma, random);
  }

  /**
   * argmax_i {n_i + N(0, σ²)}: the GNMax release of Papernot et al. 2018 (Section 4.1) for any σ.
   *
   * @param counts per-class vote counts, each ≥ 0, at least one class
   * @param sigma σ &gt; 0
   * @param random the noise source
   */
  public static int noisyArgmax(int[] counts, double sigma, RandomGenerator random) {
    Require.nonNull("counts", counts);
    Require.positive("sigma", sigma);
    Require.nonNull("random", random);
    Require.positive("classes", counts.length);
    int best = -1;
    double bestValue = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < counts.length; i++) {
      Require.nonNegative("counts[" + i + "]", counts[i]);
      double v = counts[i] + sigma * random.nextGaussian();
      if (v > bestValue) {
        bestValue = v;
        best = i;
      }
    }
    return best;
  }

  /** The data-independent RDP bound λ/σ² at the calibrated order. */
  public double gaussianRdp() {
    return lambda / (sigma * sigma);
  }

  /**
   * The data-dependent RDP ε at order λ of Papernot et al. 2018 (Proposition 7 and Theorem 6), as
   * [DaRRM24, Algorithm 6] restates it, or the Gaussian bound λ/σ² when its conditions fail; the
   * smaller of the two is returned. With i* the top class, q = Σ_{i≠i*} ½ erfc((n_{i*} − n_i)/(2σ))
   * bounds Pr[GNMax ≠ i*] (Proposition 7); {@link #theorem6} turns it into the bound. (Algorithm 6
   * as printed loses the logarithm and loops over an index it never uses.)
   */
  public double dataDependentRdp(int[] counts) {
    return theorem6(logQ(counts, sigma), sigma, lambda);
  }

  /**
   * log q of Proposition 7 of Papernot et al. 2018: q = Σ_{i≠i*} Pr[N(0, 2σ²) &gt; n_{i*} − n_i], a
   * union bound on Pr[argmax_i {n_i + N(0, σ²)} ≠ i*] for the top class i* (the first of equal
   * tops), summed in log space so that a strong consensus gives a finite log q instead of 0, and
   * capped at 1 − 1/C: the noises are exchangeable and n_{i*} is largest, so i* wins with
   * probability at least that of any other class, hence at least 1/C.
   *
   * @param counts per-class vote counts, at least two classes
   * @param sigma σ &gt; 0
   */
  public static double logQ(int[] counts, double sigma) {
    Require.nonNull("counts", counts);
    Require.positive("sigma", sigma);
    Require.that(counts.length >= 2, "classes", "must be >= 2", counts.length);
    int top = 0;
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[top]) {
        top = i;
      }
    }
    double logQ = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < counts.length; i++) {
      if (i != top) {
        // ½ erfc(d / (2σ)) = Pr[N(0, 1) > d / (√2 σ)].
        logQ = LogMath.logAddExp(logQ,
            StandardNormal.logCdf(-(counts[top] - counts[i]) / (Math.sqrt(2) * sigma)));
      }
    }
    return Math.min(logQ, Math.log1p(-1.0 / counts.length));
  }

  /**
   * Theorem 6 of Papernot et al. 2018 for a mechanism that is (μ, μ/σ²)-RDP for every μ ≥ 1 (GNMax
   * with noise σ, Proposition 8; the threshold check of Algorithm 1 with σ replaced by √2·σ₁) and
   * whose most likely outcome has probability at least 1 − q, evaluated at the orders μ₂ = σ√(log
   * 1/q), μ₁ = μ₂ + 1 the paper's Proposition 10 picks: with ε_j = μ_j/σ², if q &lt; 1, μ₁ ≥ λ, μ₂
   * &gt; 1 and q ≤ e^{(μ₂−1)ε₂}/(μ₁/(μ₁−1) · μ₂/(μ₂−1))^{μ₂}, the bound is 1/(λ − 1) · log((1 − q)
   * A^{λ−1} + q B^{λ−1}) with A = (1 − q)/(1 − (q e^{ε₂})^{(μ₂−1)/μ₂}) and B = e^{ε₁}/q^{1/(μ₁−1)};
   * the smaller of it and λ/σ² is returned (0 when q = 0: the outcome is fixed). Computed in log
   * space; μ₂ &gt; 1 implies q e^{ε₂} &lt; 1, so A is finite and positive.
   *
   * @param logQ log q ≤ 0 (−∞ allowed)
   * @param sigma σ &gt; 0
   * @param lambda the order λ &gt; 1
   */
  public static double theorem6(double logQ, double sigma, double lambda) {
    Require.that(!(logQ > 0) && !Double.isNaN(logQ), "logQ", "must be <= 0", logQ);
    Require.positive("sigma", sigma);
    Require.renyiOrder("lambda", lambda);
    double gaussian = lambda / (sigma * sigma);
    if (logQ == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (!(logQ < 0)) {
      return gaussian;
    }
    double mu2 = sigma * Math.sqrt(-logQ);
    double mu1 = mu2 + 1;
    double eps2 = mu2 / (sigma * sigma);
    if (!(mu1 >= lambda && mu2 > 1)) {
      return gaussian;
    }
    double logQub = (mu2 - 1) * eps2 - mu2 * Math.log(mu1 / (mu1 - 1) * mu2 / (mu2 - 1));
    if (!(logQ <= logQub)) {
      return gaussian;
    }
    return Math.min(gaussian, theorem6Bound(logQ, sigma, lambda));
  }

  /**
   * The expression of Theorem 6 of Papernot et al. 2018 at the orders of their Proposition 10 (μ₂ =
   * σ√(log 1/q), μ₁ = μ₂ + 1), 1/(λ − 1) · log((1 − q) A^{λ−1} + q B^{λ−1}), WITHOUT the theorem's
   * conditions: a bound only where {@link #theorem6} would use it (the caller checks the
   * conditions, as the smooth-sensitivity analysis does by comparing log q with log q₀ of their
   * Appendix B.4). Computed in log space; needs μ₂ &gt; 1.
   *
   * @param logQ log q &lt; 0
   * @param sigma σ &gt; 0
   * @param lambda the order λ &gt; 1
   */
  public static double theorem6Bound(double logQ, double sigma, double lambda) {
    double mu2 = sigma * Math.sqrt(-logQ);
    double mu1 = mu2 + 1;
    double eps1 = mu1 / (sigma * sigma);
    double eps2 = mu2 / (sigma * sigma);
    double log1mQ = LogMath.log1mExp(logQ);
    double logA = log1mQ - LogMath.log1mExp((mu2 - 1) / mu2 * (logQ + eps2));
    double logB = eps1 - logQ / (mu1 - 1);
    return LogMath.logAddExp(log1mQ + (lambda - 1) * logA, logQ + (lambda - 1) * logB)
        / (lambda - 1);
  }

  /** (ε, δ)-DP from an RDP ε at order λ (Papernot et al. 2018 Theorem 5): ε + log(1/δ)/(λ − 1). */
  public ApproxDp toDp(double rdpEpsilon, double delta) {
    Require.nonNegative("rdp epsilon", rdpEpsilon);
    Require.openUnit("delta", delta);
    return new ApproxDp(Math.nextUp(rdpEpsilon + Math.log(1 / delta) / (lambda - 1)), delta);
  }
}
