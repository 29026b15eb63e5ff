package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;

/**
 * The exact f-DP analysis of the shuffled summation protocols, which [ShuffleGDP21] does not give: the
 * optimal trade-off between neighbouring inputs, worst case over the other users' data, with
 * randomized Neyman–Pearson tests.
 *
 * <p><b>Reduction.</b> The shuffler's output is a uniformly random ordering of the N messages, so
 * it is a post-processing of the number of 1s, and vice versa (Claim B.2): the view is the count Y.
 * Every message is an independent Ber(p) (message bit 0) or Ber(1 − p) (message bit 1) with
 * p = λ/(2n), so Y ~ D_k = Bin(k, 1 − p) + Bin(N − k, p), where k is the number of 1 bits among
 * all N messages. For P^{0/1}_{n,λ} (N = n), neighbouring inputs have k and k + 1 ones. For
 * P^R_{n,λ,r} all N = n·r messages are shuffled together; for any fixed outcome of the encoder's
 * coins the neighbouring inputs change d ≤ r of one user's bits, giving the pair (D_j, D_{j+d}),
 * and the encoder's coins are a common mixture, which never increases the privacy profile. So
 * the protocol is f-DP for the lower convex envelope of {T(D_j, D_{j+d}), T(D_{j+d}, D_j)} over all
 * j and 1 ≤ d ≤ r, and for r = 1 this is exact: its privacy profile is the exact worst-case δ(ε).
 *
 * <p><b>Tests.</b> D_j is a Poisson-binomial law, hence log-concave, and Bin(d, 1 − p) vs Bin(d, p)
 * has a monotone likelihood ratio, which convolution with a log-concave law preserves (Karlin): the
 * Neyman–Pearson tests are thresholds on Y, and the curve's vertices are (P(Y ≥ t), P'(Y &lt; t)).
 * The reflection y ↦ N − y maps the pair at j to the reversed pair at N − d − j, so j ≤ (N − d)/2
 * with both orientations covers all pairs.
 *
 * <p><b>Numerics and rounding.</b> Binomial masses are formed in log space and dropped below
 * tail/(m + 1) of one binomial, tail the finest of {@link #TAILS} (10^-290, 10^-100, 10^-30)
 * that the cost allows; the dropped mass m_P of each D is at most 2·tail.
 * Every vertex is moved in the safe direction by the dropped mass (the power of each test is
 * raised by 2m_Q, Lemma: T ≥ T̂ − m_Q for the truncated T̂), so the curve is a lower bound of the
 * exact one within tail-scale slack and floating-point rounding (relative ~1e−13).
 * Beyond the truncated range the curve is capped by the local guarantee (ε₀·r, 0)-DP, which holds
 * exactly for every pair (each changed message has likelihood ratio at most (1 − p)/p).
 *
 * <p><b>Cost.</b> About (N/2)·w_1·w_2 multiply-adds, w the widths of the two truncated binomials
 * (≈ 26 standard deviations at the coarsest truncation): n = 10^6, λ = 58, r = 1 took 12 s of CPU
 * on the development machine; n = 100, λ = 58 takes well under a second. Calls whose
 * estimate exceeds {@link #MAX_OPERATIONS} are refused with an IllegalArgumentException.
 */
public final class ExactShuffleAnalysis {

  /**
   * Candidate bounds on the mass dropped from one binomial factor, finest first. The finest one
   * whose cost stays within {@link #FINE_OPERATIONS} is used: the Gaussian μ depends on the far
   * tail (α down to 10^-290), where only the local ε₀ cap is known beyond the truncation.
   */
  static final double[] TAILS = {1e-290, 1e-100, 1e-30};

  /** Cost up to which a finer truncation is preferred. */
  static final double FINE_OPERATIONS = 2e9;

  /** Largest estimated number of multiply-adds accepted. */
  public static final double MAX_OPERATIONS = 2e10;

  private ExactShuffleAnalysis() {}

  /** The estimated multiply-adds of {@link #worstCase} (with the coarsest truncation). */
  public static double estimatedOperations(ShuffleParameters parameters, int bits) {
    Require.nonNull("parameters", parameters);
    Require.positive("bits", bits);
    return estimatedOperations(parameters, bits, TAILS[TAILS.length - 1]);
  }

  /** The truncation used: the finest of {@link #TAILS} within {@link #FINE_OPERATIONS}. */
  static double tail(ShuffleParameters parameters, int bits) {
    for (double tail : TAILS) {
      if (estimatedOperations(parameters, bits, tail) <= FINE_OPERATIONS) {
        return tail;
      }
    }
    return TAILS[TAILS.length - 1];
  }

  private static double estimatedOperations(ShuffleParameters parameters, int bits, double tail) {
    double messages = (double) parameters.users() * bits;
    double p = parameters.flipProbability();
    double halfVariance = messages * p * (1 - p) / 2;
    double width = 2 * Math.sqrt(2 * (-Math.log(tail) + Math.log(messages + 1))) * Math.sqrt(
        halfVariance) + 3;
    width = Math.min(width, messages + 1);
    return (messages / 2 + bits) * width * width * bits;
  }

  /**
   * The worst-case trade-off curve (as a power curve) of P^{0/1}_{n,λ} (bits = 1) or
   * P^R_{n,λ,r} (bits = r), a lower bound on T(M(X), M(X′)) for every pair of neighbouring inputs,
   * tight for r = 1 up to the stated slack.
   *
   * @throws IllegalArgumentException if n·r exceeds 2^31 − 1 or the cost exceeds
   *     {@link #MAX_OPERATIONS}
   */
  public static PowerCurve worstCase(ShuffleParameters parameters, int bits) {
    Require.nonNull("parameters", parameters);
    Require.positive("bits", bits);
    long messagesLong = (long) parameters.users() * bits;
    Require.that(messagesLong <= Integer.MAX_VALUE, "users * bits",
        "must be <= " + Integer.MAX_VALUE, messagesLong);
    double ops = estimatedOperations(parameters, bits);
    if (ops > MAX_OPERATIONS) {
      throw new IllegalArgumentException(String.format(
          "exact analysis for users=%d, lambda=%s, bits=%d needs about %.1e operations, more than"
              + " the limit %.0e; use fewer users, bits or a smaller lambda",
          parameters.users(), parameters.lambda(), bits, ops, MAX_OPERATIONS));
    }
    int messages = (int) messagesLong;
    double p = parameters.flipProbability();
    double tail = tail(parameters, bits);
    WorstCaseCurveBuilder builder = new WorstCaseCurveBuilder();
    int kMax = (int) Math.min(messages, ((long) messages + bits) / 2);
    TruncatedBinomial[] window = new TruncatedBinomial[bits + 1];
    for (int k = 0; k <= kMax; k++) {
      TruncatedBinomial ones = TruncatedBinomial.of(k, p, tail).reflected(k);
      TruncatedBinomial zeros = TruncatedBinomial.of(messages - k, p, tail);
      TruncatedBinomial dk = ones.convolve(zeros);
      window[k % (bits + 1)] = dk;
      for (int d = 1; d <= bits && d <= k; d++) {
        int j = k - d;
        if (2L * j <= messages - d) {
          addPair(builder, window[j % (bits + 1)], dk);
        }
      }
    }
    PowerCurve local = PowerCurve.pureDp(bits * parameters.localEpsilon());
    return builder.build().min(local);
  }

  /** Adds the threshold tests of T(P, Q) and the reflected tests of T(Q, P). */
  private static void addPair(WorstCaseCurveBuilder builder, TruncatedBinomial p,
      TruncatedBinomial q) {
    int lo = Math.min(p.offset(), q.offset());
    int hi = Math.max(p.offset() + p.mass().length, q.offset() + q.mass().length);
    int len = hi - lo;
    double[] pu = new double[len];
    double[] qu = new double[len];
    System.arraycopy(p.mass(), 0, pu, p.offset() - lo, p.mass().length);
    System.arraycopy(q.mass(), 0, qu, q.offset() - lo, q.mass().length);
    double[] pBelow = new double[len + 1];
    double[] qBelow = new double[len + 1];
    for (int i = 0; i < len; i++) {
      pBelow[i + 1] = pBelow[i] + pu[i];
      qBelow[i + 1] = qBelow[i] + qu[i];
    }
    double[] pAbove = new double[len + 1];
    double[] qAbove = new double[len + 1];
    for (int i = len - 1; i >= 0; i--) {
      pAbove[i] = pAbove[i + 1] + pu[i];
      qAbove[i] = qAbove[i + 1] + qu[i];
    }
    double mp = p.missingMassBound();
    double mq = q.missingMassBound();
    double[] alphas = new double[len + 1];
    double[] powers = new double[len + 1];
    // Reject when Y >= t: type I error P(Y >= t), power Q(Y >= t) (+ dropped mass, safe);
    // listed from t = len down to 0 so that α increases.
    for (int t = len; t >= 0; t--) {
      alphas[len - t] = pAbove[t];
      powers[len - t] = qAbove[t] + 2 * mq;
    }
    builder.addAscending(alphas, powers, len + 1);
    // The reversed pair T(Q, P) = T(P, Q)^{-1}: reject when Y < t (α increases with t).
    for (int t = 0; t <= len; t++) {
      alphas[t] = qBelow[t] - mq;
      powers[t] = pBelow[t] + mp;
    }
    builder.addAscending(alphas, powers, len + 1);
  }
}
