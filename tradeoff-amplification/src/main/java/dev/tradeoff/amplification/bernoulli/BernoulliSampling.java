package dev.tradeoff.amplification.bernoulli;

import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.Optional;

/**
 * Bernoulli post-processing [BernAmp21, Definition 5]: an algorithm A releases θ ∈ [c, 1 −
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
 *       certified interval from a Lagrangian certificate that reduces every (d, k) to two
 *       variables (see {@code LagrangianCertificate}).
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

  /** Largest dk for which {@link #amplify} runs the Lagrangian certificate. */
  private static final long MAX_WEIGHTS = 4096;

  /** Most boxes the Lagrangian certificate branches before the corner search takes over. */
  private static final long CERTIFICATE_NODES = 600_000;

  /**
   * Share of the gap tolerance given to the certificate (in log units, times α − 1); the rest
   * covers the rounding of both ends (a relative 1e-12).
   */
  private static final double CERTIFICATE_SHARE = 0.9;

  /** Largest channel (outcomes × corners) that the fallback corner search runs on. */
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
    return Math.min(epsilon, roundDown(value));
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
    return Optional.of(roundDown(BinaryRenyi.rFromLog(alpha, logPPlusK)));
  }

  /** {@link #amplify(double, SearchBudget)} with {@link SearchBudget#DEFAULT}. */
  public Amplification amplify(double epsilon) {
    return amplify(epsilon, SearchBudget.DEFAULT);
  }

  /**
   * Post_{A,α,k}(ε) (Definition 6) for A the algorithms with range in [c, 1 − c]^d, as a certified
   * interval. By Theorems 1 and 3 it is a maximum over pairs of c-corner distributions. The lower
   * end is the pair (3)–(4) of the lower bound (or a better feasible antipodal pair, should the
   * search meet one); the upper end is min(ε, asymptote) and the Lagrangian certificate of {@code
   * LagrangianCertificate}, which reduces every (d, k) to a two-variable bound with n = dk and is
   * found by a certified branch and bound (at most 600 000 boxes; see docs/amplification-certificate.md
   * for the theorem, its proof and the box bounds). Where the certificate is not attempted (c = 0,
   * dk &gt; 4096 or p(ε) &lt; e^{−650}) the primal corner branch and bound of {@code
   * CornerBranchAndBound} runs on the full channel instead, if it is small enough. When the cheap
   * bounds already agree to the tolerance no search is run.
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
    double logP = BinaryRenyi.logPForEpsilon(alpha, epsilon);
    long weights = (long) dimension * samples;
    boolean certificate = c > 0 && weights <= MAX_WEIGHTS && logP > -650;
    if (upper - lower > budget.gapTolerance() && certificate) {
      LagrangianCertificate.Result found =
          new LagrangianCertificate(alpha, c, (int) weights, (alpha - 1) * epsilon)
              .certify(
                  logP,
                  (alpha - 1) * budget.gapTolerance() * CERTIFICATE_SHARE,
                  Math.min(budget.maxNodes(), CERTIFICATE_NODES));
      if (found.logFeasible() > Double.NEGATIVE_INFINITY) {
        post = Math.max(post, roundDown(found.logFeasible() / (alpha - 1)));
      }
      upper = Math.min(upper, roundUp(found.logUpper() / (alpha - 1)));
    }
    if (upper - post > budget.gapTolerance()
        && !certificate
        && c > 0
        && channelEntries() <= MAX_CHANNEL_ENTRIES) {
      CornerChannel channel = new CornerChannel(c, dimension, samples);
      CornerBranchAndBound search = new CornerBranchAndBound(channel, alpha, (alpha - 1) * epsilon);
      CornerBranchAndBound.Outcome found =
          search.maximize(
              (alpha - 1) * post, (alpha - 1) * budget.gapTolerance() / 2, budget.maxNodes());
      post = Math.max(post, roundDown(found.logLower() / (alpha - 1)));
      upper = Math.min(upper, roundUp(found.logUpper() / (alpha - 1)));
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

  /**
   * Down by a relative 1e-12 (the floating-point error of the log-sum-exp evaluations), at least 0:
   * one ulp down, as before, left lower ends up to 3e-16 above the value they bound.
   */
  private static double roundDown(double value) {
    return Math.max(0, Math.nextDown(value - 1e-12 * Math.max(1, Math.abs(value))));
  }

  /** Up by a relative 1e-12 (the floating-point error of the log-sum-exp evaluations). */
  private static double roundUp(double value) {
    return Math.nextUp(value + 1e-12 * Math.max(1, Math.abs(value)));
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
