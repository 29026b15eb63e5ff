package dev.tradeoff.ensemble.noise;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Arrays;

/**
 * A noise function γ : {0, …, K} → [0, 1] of DaRRM
 * [DaRRM24, Algorithm 1]: on L = l votes for 1 out of K, DaRRM outputs the
 * true majority with probability γ(l) and a fair coin otherwise.
 *
 * <p>Every instance is symmetric, γ(l) = γ(K − l) (Section 3, property (b)), has values in [0, 1]
 * and an odd number K of teachers, so the majority is never tied. A user-supplied vector must be
 * symmetric to within {@link #SYMMETRY_TOLERANCE}; it is then stored exactly symmetric (the mean of
 * the two mirrored values). Being a valid γ says nothing about privacy: that is the job of {@code
 * dev.tradeoff.ensemble.privacy.PrivacyVerifier}.
 *
 * @param values γ(0), …, γ(K); defensively copied
 */
public record NoiseFunction(double[] values) {

  /** Largest accepted |γ(l) − γ(K − l)| in a user-supplied vector. */
  public static final double SYMMETRY_TOLERANCE = 1e-9;

  public NoiseFunction {
    values = Require.finiteValues("gamma", values);
    int k = values.length - 1;
    Require.that(k >= 1 && k % 2 == 1, "gamma", "must have K + 1 values for an odd K >= 1",
        "length " + values.length);
    for (int l = 0; l <= k; l++) {
      Require.probability("gamma[" + l + "]", values[l]);
    }
    for (int l = 0; l <= k / 2; l++) {
      double a = values[l];
      double b = values[k - l];
      Require.that(Math.abs(a - b) <= SYMMETRY_TOLERANCE, "gamma",
          "must be symmetric, gamma(l) = gamma(K - l)", "gamma(" + l + ") = " + a + ", gamma("
              + (k - l) + ") = " + b);
      double mean = a == b ? a : 0.5 * (a + b);
      values[l] = mean;
      values[k - l] = mean;
    }
  }

  /** The number K of teachers. */
  public int teachers() {
    return values.length - 1;
  }

  /** γ(l). */
  public double at(int l) {
    return values[l];
  }

  /** A copy of γ(0), …, γ(K). */
  @Override
  public double[] values() {
    return values.clone();
  }

  /**
   * The (K + 1)/2 free values γ(0), …, γ((K − 1)/2); the rest follow by symmetry.
   */
  public double[] freeValues() {
    return Arrays.copyOf(values, (values.length) / 2);
  }

  /** The symmetric γ with the given free values γ(0), …, γ((K − 1)/2). */
  public static NoiseFunction fromFreeValues(int teachers, double[] free) {
    requireOddTeachers(teachers);
    Require.that(free.length == (teachers + 1) / 2, "free gamma values", "must have (K + 1)/2 = "
        + (teachers + 1) / 2 + " entries", free.length);
    double[] v = new double[teachers + 1];
    for (int u = 0; u < free.length; u++) {
      v[u] = free[u];
      v[teachers - u] = free[u];
    }
    return new NoiseFunction(v);
  }

  /** This γ multiplied by {@code factor} ∈ [0, 1] (privacy cost scales linearly, Lemma 3.4). */
  public NoiseFunction scaled(double factor) {
    Require.probability("factor", factor);
    double[] v = values.clone();
    for (int l = 0; l < v.length; l++) {
      v[l] *= factor;
    }
    return new NoiseFunction(v);
  }

  /** The constant γ ≡ c: classical randomized response [DaRRM24, Algorithm 2]. */
  public static NoiseFunction constant(int teachers, double c) {
    requireOddTeachers(teachers);
    Require.probability("gamma constant", c);
    double[] v = new double[teachers + 1];
    Arrays.fill(v, c);
    return new NoiseFunction(v);
  }

  /**
   * γ_Sub of [DaRRM24, Lemma 3.1]: DaRRM with it has the output distribution of the majority of {@code
   * sampled} of the K teachers drawn without replacement (a tie, possible for even m, is broken by
   * a fair coin). With h(l) = Pr[majority of the subsample is 1 | L = l] (hypergeometric),
   * γ_Sub(l) = 1 − 2h(l) for l ≤ (K − 1)/2 and 2h(l) − 1 for l ≥ (K + 1)/2. The paper prints
   * 1 − 2h(l) for every l, which is right only on the lower half (it is negative above it).
   *
   * @param teachers odd K ≥ 1
   * @param sampled m ∈ [1, K], odd or even
   */
  public static NoiseFunction subsampling(int teachers, int sampled) {
    requireOddTeachers(teachers);
    Require.inClosedRange("m", sampled, 1, teachers);
    double[] v = new double[teachers + 1];
    for (int l = 0; l <= teachers; l++) {
      double h = majorityOfSubsample(teachers, l, sampled);
      v[l] = l <= teachers / 2 ? 1 - 2 * h : 2 * h - 1;
      v[l] = Math.min(1, Math.max(0, v[l]));
    }
    symmetrizeExactly(v);
    return new NoiseFunction(v);
  }

  /**
   * γ_DSub of [DaRRM24, Theorem 4.1] (pure DP, i.i.d. teachers): γ ≡ 1 when m ≥ (K + 1)/2, otherwise
   * γ_Sub for a subsample of 2m − 1 teachers. DaRRM with it is mε-DP when Δ = δ = 0.
   *
   * @param teachers odd K ≥ 1
   * @param allowance m ∈ [1, K]
   */
  public static NoiseFunction doubleSubsampling(int teachers, int allowance) {
    requireOddTeachers(teachers);
    Require.inClosedRange("m", allowance, 1, teachers);
    if (2 * allowance - 1 >= teachers) {
      return constant(teachers, 1);
    }
    return subsampling(teachers, 2 * allowance - 1);
  }

  /**
   * The constant γ of classical randomized response [DaRRM24, Lemma A.1]: if the majority of the K
   * teachers is (τε, λ)-DP (τ, λ by simple or general composition, {@code
   * dev.tradeoff.accounting.composition.PrivacyAllowance}), RR with
   *
   * <pre>p_const = (e^{mε} − 1 + 2δ) / (2(e^{τε} − e^{mε} + (1 + e^{mε})λ)/(e^{τε} + 1) + e^{mε} − 1)</pre>
   *
   * (capped at 1) is (mε, δ)-DP. The value is rounded down by one ulp (the safe direction).
   *
   * @param teachers odd K
   * @param targetEpsilon mε &gt; 0
   * @param delta δ ∈ [0, 1)
   * @param majorityEpsilon τε ≥ mε (the composed ε of all K teachers)
   * @param majorityDelta λ ∈ [0, 1)
   */
  public static NoiseFunction randomizedResponse(int teachers, double targetEpsilon, double delta,
      double majorityEpsilon, double majorityDelta) {
    requireOddTeachers(teachers);
    Require.positive("m epsilon", targetEpsilon);
    Require.delta("delta", delta);
    Require.positive("tau epsilon", majorityEpsilon);
    Require.delta("lambda", majorityDelta);
    double e = Math.exp(targetEpsilon);
    double et = Math.exp(majorityEpsilon);
    double numerator = Math.expm1(targetEpsilon) + 2 * delta;
    double denominator = 2 * (et - e + (1 + e) * majorityDelta) / (et + 1)
        + Math.expm1(targetEpsilon);
    double p = denominator <= numerator ? 1 : Math.nextDown(numerator / denominator);
    return constant(teachers, Math.max(0, Math.min(1, p)));
  }

  /**
   * Pr[majority of {@code m} drawn without replacement from K votes with {@code l} ones is 1],
   * ties counted 1/2: Σ_j C(l, j) C(K − l, m − j) / C(K, m) over j &gt; m/2, plus half the j = m/2
   * term, summed in log space.
   */
  static double majorityOfSubsample(int k, int l, int m) {
    double logTotal = LogMath.logBinomial(k, m);
    double h = 0;
    for (int j = Math.max(0, m - (k - l)); j <= Math.min(l, m); j++) {
      double weight;
      if (2 * j > m) {
        weight = 1;
      } else if (2 * j == m) {
        weight = 0.5;
      } else {
        continue;
      }
      h += weight * Math.exp(LogMath.logBinomial(l, j) + LogMath.logBinomial(k - l, m - j)
          - logTotal);
    }
    return Math.min(1, h);
  }

  private static void symmetrizeExactly(double[] v) {
    int k = v.length - 1;
    for (int l = 0; l <= k / 2; l++) {
      double mean = 0.5 * (v[l] + v[k - l]);
      v[l] = mean;
      v[k - l] = mean;
    }
  }

  static void requireOddTeachers(int teachers) {
    Require.positive("K (teachers)", teachers);
    Require.that(teachers % 2 == 1, "K (teachers)", "must be odd", teachers);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoiseFunction other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "NoiseFunction" + Arrays.toString(values);
  }
}
