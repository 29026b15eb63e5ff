package dev.tradeoff.ensemble.utility;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.random.RandomGenerator;

/**
 * The error of DaRRM_γ ([DaRRM24, Definition 2.4]): the total
 * variation distance |Pr[DaRRM_γ(D) = 1] − Pr[g(S) = 1]| between its output and the true majority
 * g of the teachers' votes, which by Appendix C.1 (Eq. 196) equals |½ Σ_{l ≥ (K+1)/2} (α_l −
 * α_{K−l})(1 − γ(l))| with α the Poisson-binomial pmf of the vote count.
 */
public final class DarrmError {

  private DarrmError() {}

  /** Exact error for teachers voting 1 with probabilities p (Definition 2.4). */
  public static double exact(NoiseFunction gamma, double[] p) {
    int k = gamma.teachers();
    Require.that(p.length == k, "p", "must have K = " + k + " entries", p.length);
    return Math.abs(signedError(gamma, poissonBinomial(p)));
  }

  /** ½ Σ_{l ≥ (K+1)/2} (α_l − α_{K−l})(1 − γ(l)) for the vote-count pmf α. */
  static double signedError(NoiseFunction gamma, double[] alpha) {
    int k = gamma.teachers();
    double e = 0;
    for (int l = (k + 1) / 2; l <= k; l++) {
      e += (alpha[l] - alpha[k - l]) * (1 - gamma.at(l));
    }
    return 0.5 * e;
  }

  /**
   * The exact expected error when the p_i are i.i.d. with mean p̄ ≥ ½ on [½, 1] (the paper's
   * surrogate, Appendix C.2.2; p̄ = ¾ for U[0.5, 1)): the pmf is multilinear in the p_i, so E α =
   * Binomial(K, p̄) and, every α_l − α_{K−l} being ≥ 0 for l ≥ (K + 1)/2 when all p_i ≥ ½, the
   * error is ½ Σ_{l ≥ (K+1)/2} (B(l) − B(K − l))(1 − γ(l)).
   */
  public static double surrogate(NoiseFunction gamma, double priorMean) {
    return signedError(gamma, binomialPmf(gamma.teachers(), priorMean));
  }

  /** Binomial(K, p) pmf, each entry from log space. */
  public static double[] binomialPmf(int k, double p) {
    Require.probability("prior mean", p);
    double[] b = new double[k + 1];
    for (int l = 0; l <= k; l++) {
      b[l] = p == 0 ? (l == 0 ? 1 : 0) : p == 1 ? (l == k ? 1 : 0)
          : Math.exp(LogMath.logBinomialPmf(k, l, p));
    }
    return b;
  }

  /** Poisson-binomial pmf of independent Bernoulli(p_i) by the direct positive recursion. */
  public static double[] poissonBinomial(double[] p) {
    double[] a = new double[p.length + 1];
    a[0] = 1;
    for (int i = 0; i < p.length; i++) {
      double pi = Require.probability("p[" + i + "]", p[i]);
      a[i + 1] = a[i] * pi;
      for (int j = i; j >= 1; j--) {
        a[j] = a[j] * (1 - pi) + a[j - 1] * pi;
      }
      a[0] *= 1 - pi;
    }
    return a;
  }

  /** A Monte-Carlo estimate and its standard error. */
  public record Estimate(double mean, double standardError, int samples) {}

  /**
   * Monte-Carlo estimate of E_{p_i ~ T i.i.d.}[E(DaRRM_γ)] with its standard error, from {@code
   * samples} draws of the K probabilities.
   */
  public static Estimate monteCarlo(NoiseFunction gamma, Prior prior, int samples,
      RandomGenerator random) {
    Require.positive("samples", samples);
    Require.nonNull("prior", prior);
    Require.nonNull("random", random);
    int k = gamma.teachers();
    double[] p = new double[k];
    double mean = 0;
    double m2 = 0;
    for (int s = 1; s <= samples; s++) {
      for (int i = 0; i < k; i++) {
        p[i] = prior.sample(random);
      }
      double x = exact(gamma, p);
      double d = x - mean;
      mean += d / s;
      m2 += d * (x - mean);
    }
    double var = samples > 1 ? m2 / (samples - 1) : 0;
    return new Estimate(mean, Math.sqrt(var / samples), samples);
  }
}
