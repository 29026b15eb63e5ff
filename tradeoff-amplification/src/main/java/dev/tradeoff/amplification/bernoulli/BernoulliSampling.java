package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Optional;

/**
 * Bernoulli post-processing (Imola and Chaudhuri, Definition 5): an algorithm A releases θ ∈ [c, 1 −
 * c]^d under (α, ε)-RDP, and only k independent draws of Bern(θ) (d independent coins each) are
 * published. This record answers how private those draws are at the same order α.
 *
 * <ul>
 *   <li>{@link #asymptote()} — d·k·r_α(c), the limit of Post as ε → ∞ and an upper bound (equations
 *       2 and 6, Theorem 5);
 *   <li>{@link #lowerBound(double)} — R_α(Bern_k(P), Bern_k(Q)) for the antipodal pair (3)–(4) with
 *       r_α(p) = ε (equations 5 and 7), computed by Theorem 4 in O(dk) terms;
 *   <li>{@link #theorem2Bound(double)} — r_α(p + K), K = e^{−2(1/2−c)² d}, a weaker closed-form
 *       lower bound (Theorem 2);
 *   <li>{@link #amplify(double)} — Post_{A,α,k}(ε) itself (Theorems 1 and 3, Algorithms 1–3), as a
 *       certified interval from a global branch and bound.
 * </ul>
 *
 * All values are computed in log space and hold for every ε &gt; 0, including (α − 1)·ε &gt; 709.
 *
 * @param alpha the Rényi order α &gt; 1
 * @param c the range margin, c ∈ [0, 1/2): θ ∈ [c, 1 − c]^d
 * @param dimension d ≥ 1
 * @param samples k ≥ 1, the number of independent Bernoulli draws released
 */
public record BernoulliSampling(double alpha, double c, int dimension, int samples) {

  /** Largest channel (outcomes × corners) that {@link #amplify} searches over. */
  private static final long MAX_CHANNEL_ENTRIES = 1L << 20;

  public BernoulliSampling {
    Require.renyiOrder("alpha", alpha);
    Require.that(c >= 0 && c < 0.5, "c", "must be in [0, 0.5)", c);
    Require.positive("dimension", dimension);
    Require.positive("samples", samples);
    Require.that(
        (long) dimension * samples <= Integer.MAX_VALUE / 2,
        "dimension * samples",
        "must be at most " + Integer.MAX_VALUE / 2,
        (long) dimension * samples);
  }

  /**
   * d·k·r_α(c) (equations 2 and 6; Theorem 5), rounded up; +∞ when c = 0 (no amplification).
   */
  public double asymptote() {
    if (c == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.nextUp((double) dimension * samples * BinaryRenyi.r(alpha, c));
  }

  /**
   * The lower bound of equations (5) and (7): R_α(Bern_k(P), Bern_k(Q)) for P = p·1[{c}^d] + (1 −
   * p)·1[{1−c}^d] and Q its mirror, with p = p(ε) so that R_α(P, Q) = R_α(Q, P) = r_α(p) = ε.
   * Computed by Theorem 4 as a log-sum-exp over the dk + 1 Hamming weights, so it costs O(dk) and
   * never overflows. The value is attained by a feasible pair (p is rounded so that r_α(p) ≤ ε) and
   * is rounded down: a valid lower bound on Post_{A,α,k}(ε).
   *
   * @throws IllegalArgumentException if ε is not &gt; 0 and finite
   */
  public double lowerBound(double epsilon) {
    Require.positive("epsilon", epsilon);
    double logP = BinaryRenyi.logPForEpsilon(alpha, epsilon);
    double logQ = LogMath.log1mExp(logP);
    double logC = Math.log(c);
    double log1mC = Math.log1p(-c);
    int weights = dimension * samples;
    double[] terms = new double[weights + 1];
    for (int j = 0; j <= weights; j++) {
      double near = times(j, logC) + times(weights - j, log1mC);
      double far = times(weights - j, logC) + times(j, log1mC);
      double logPj = LogMath.logAddExp(logP + near, logQ + far);
      double logQj = LogMath.logAddExp(logQ + near, logP + far);
      terms[j] =
          logPj == Double.NEGATIVE_INFINITY
              ? Double.NEGATIVE_INFINITY
              : LogMath.logBinomial(weights, j) + alpha * logPj + (1 - alpha) * logQj;
    }
    double value = LogMath.logSumExp(terms) / (alpha - 1);
    return Math.max(0, Math.min(epsilon, Math.nextDown(value)));
  }

  /**
   * Theorem 2: r_α(p + K) ≤ R_α(Bern(P), Bern(Q)) with K = e^{−2(1/2−c)² d} and p = p(ε), whenever
   * p + K ≤ 1/2; empty otherwise. The paper states it for k = 1; because Bern_k of the pair (3)–(4)
   * is the k = 1 problem in dimension dk (Theorem 4 depends on d and k only through dk), the same
   * proof gives it here with d replaced by dk, which is what is computed.
   */
  public Optional<Double> theorem2Bound(double epsilon) {
    Require.positive("epsilon", epsilon);
    double logK = -2 * (0.5 - c) * (0.5 - c) * dimension * (double) samples;
    double logPPlusK = LogMath.logAddExp(BinaryRenyi.logPForEpsilon(alpha, epsilon), logK);
    if (logPPlusK > -Math.log(2)) {
      return Optional.empty();
    }
    return Optional.of(Math.nextDown(BinaryRenyi.rFromLog(alpha, logPPlusK)));
  }

  /** {@link #amplify(double, SearchBudget)} with {@link SearchBudget#DEFAULT}. */
  public Amplification amplify(double epsilon) {
    return amplify(epsilon, SearchBudget.DEFAULT);
  }

  /**
   * Post_{A,α,k}(ε) (Definition 6) for A the algorithms with range in [c, 1 − c]^d, as a certified
   * interval. By Theorems 1 and 3 it is a maximum over pairs of c-corner distributions; it is found
   * by {@code CornerBranchAndBound}, started from the pair of the lower bound (5)/(7), and capped by
   * min(ε, asymptote). When those cheap bounds already agree to the tolerance no search is run.
   *
   * <p>Rounding: {@code post} is rounded down and {@code upperBound} up by a relative 1e-12 (which
   * covers the floating-point error of the log-sum-exp evaluations), so the interval is safe.
   *
   * @throws IllegalArgumentException if ε is not &gt; 0 and finite
   */
  public Amplification amplify(double epsilon, SearchBudget budget) {
    Require.positive("epsilon", epsilon);
    Require.nonNull("budget", budget);
    double lower = lowerBound(epsilon);
    double asymptote = asymptote();
    double upper = Math.min(epsilon, asymptote);
    double post = lower;
    if (upper - lower > budget.gapTolerance() && c > 0 && channelEntries() <= MAX_CHANNEL_ENTRIES) {
      CornerChannel channel = new CornerChannel(c, dimension, samples);
      CornerBranchAndBound search = new CornerBranchAndBound(channel, alpha, (alpha - 1) * epsilon);
      CornerBranchAndBound.Outcome found =
          search.maximize(
              (alpha - 1) * lower, (alpha - 1) * budget.gapTolerance() / 2, budget.maxNodes());
      post = Math.max(post, Math.nextDown(found.logLower() / (alpha - 1)));
      double searched = found.logUpper() / (alpha - 1);
      upper = Math.min(upper, Math.nextUp(searched + 1e-12 * Math.max(1, Math.abs(searched))));
    }
    post = Math.min(post, upper);
    double gap = upper - post;
    return new Amplification(post, lower, upper, asymptote, gap <= budget.gapTolerance(), gap);
  }

  /**
   * The amplified guarantee of Bern_k(A) for an (α, ε)-RDP algorithm A: (α, Post_{A,α,k}(ε))-RDP,
   * stated with the certified upper bound of {@link #amplify(double)}.
   */
  public RenyiDp guarantee(double epsilon) {
    return RenyiDp.ofOrder(alpha, amplify(epsilon).upperBound());
  }

  /** (k + 1)^d · 2^d, saturating at Long.MAX_VALUE. */
  private long channelEntries() {
    if (dimension > 40) {
      return Long.MAX_VALUE;
    }
    double entries = Math.pow(samples + 1.0, dimension) * Math.pow(2, dimension);
    return entries >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) entries;
  }

  /** n·log x with 0·log 0 = 0 (so that c = 0 is handled by the same formulas). */
  private static double times(int n, double log) {
    return n == 0 ? 0 : n * log;
  }
}
