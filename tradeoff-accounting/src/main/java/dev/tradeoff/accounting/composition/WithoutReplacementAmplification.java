package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * Privacy amplification by subsampling without replacement, in (ε, δ) form: if M is (ε, δ)-DP
 * with respect to replacing one record (the "substitution" relation), then running M on m records
 * drawn uniformly without replacement from n is (log(1 + γ(e^ε − 1)), γδ)-DP with respect to
 * replacing one record, γ = m/n (Balle, Barthe and Gaboardi 2018, "Privacy Amplification by
 * Subsampling: Tight Analyses via Couplings and Divergences", Theorem 9; the "without replacement /
 * substitution" row of their Table 1). The statement does not hold for add/remove-one neighbouring
 * (the subsample size would then differ between neighbours), so callers must check the relation.
 *
 * <p>Rounding: γ = m/n is rounded up, ε′ = log1p(γ·expm1(ε)) is rounded up by a relative margin
 * covering its four roundings (log1p does not amplify relative error: x/(1 + x) ≤ log1p(x)), and
 * γδ is rounded up likewise. For ε ≥ 700, where e^ε overflows, ε′ = ε + log(γ + (1 − γ)e^{−ε}):
 * its absolute error is a few ulps of ε, and eight ulps of ε are added before the relative margin.
 */
public final class WithoutReplacementAmplification {

  private WithoutReplacementAmplification() {}

  /**
   * The sampling ratio γ = m/n, rounded up (the exact residual of one fused multiply-add tells the
   * direction).
   *
   * @param datasetSize n ≥ 1
   * @param sampleSize m in [1, n]
   */
  public static double samplingRatio(int datasetSize, int sampleSize) {
    Require.positive("datasetSize", datasetSize);
    Require.inClosedRange("sampleSize", sampleSize, 1, datasetSize);
    double ratio = (double) sampleSize / datasetSize;
    return Math.fma(ratio, datasetSize, -sampleSize) < 0 ? Math.nextUp(ratio) : ratio;
  }

  /**
   * [BBG18, Theorem 9] for a subsample of m out of n records.
   *
   * @param guarantee the replace-one (ε, δ) of the mechanism run on the subsample
   * @param datasetSize n ≥ 1
   * @param sampleSize m in [1, n]
   */
  public static ApproxDp amplify(ApproxDp guarantee, int datasetSize, int sampleSize) {
    return amplify(guarantee, samplingRatio(datasetSize, sampleSize));
  }

  /**
   * [BBG18, Theorem 9] for a sampling ratio γ.
   *
   * @param guarantee the replace-one (ε, δ) of the mechanism run on the subsample
   * @param gamma γ in (0, 1]
   */
  public static ApproxDp amplify(ApproxDp guarantee, double gamma) {
    Require.nonNull("guarantee", guarantee);
    Require.inClosedRange("gamma", gamma, Double.MIN_VALUE, 1);
    return new ApproxDp(
        amplifiedEpsilon(guarantee.epsilon(), gamma),
        RoundoffMargin.deltaUp(gamma * guarantee.delta(), 1));
  }

  /**
   * log(1 + γ(e^ε − 1)) rounded up; 0 stays 0 and +∞ stays +∞.
   *
   * @param epsilon ε ≥ 0 or +∞
   * @param gamma γ in (0, 1]
   */
  public static double amplifiedEpsilon(double epsilon, double gamma) {
    Require.inClosedRange("gamma", gamma, Double.MIN_VALUE, 1);
    if (!(epsilon >= 0)) {
      throw new IllegalArgumentException("epsilon must be >= 0 (or +Infinity), but was " + epsilon);
    }
    if (epsilon == 0 || epsilon == Double.POSITIVE_INFINITY) {
      return epsilon;
    }
    double value =
        epsilon < 700
            ? Math.log1p(gamma * Math.expm1(epsilon))
            : epsilon + Math.log(gamma + (1 - gamma) * Math.exp(-epsilon)) + 8 * Math.ulp(epsilon);
    return RoundoffMargin.up(value, 4);
  }
}
