package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact optimal composition of k identical (ε₀, δ)-DP mechanisms: Kairouz, Oh and Viswanath,
 * <i>The composition theorem for differential privacy</i> (ICML 2015), Theorem 3.3, extended from
 * the theorem's grid to the full optimal privacy profile.
 *
 * <p><b>Theorem 3.3.</b> For i = 0, …, ⌊k/2⌋ the k-fold adaptive composition is ((k − 2i)ε₀, 1 − (1
 * − δ)^k (1 − δ_i))-DP with
 *
 * <pre>
 *   δ_i = Σ_{l=0}^{i−1} C(k, l) (e^{(k−l)ε₀} − e^{(k−2i+l)ε₀}) / (1 + e^{ε₀})^k,
 * </pre>
 *
 * and no smaller δ holds for the whole class of (ε₀, δ) mechanisms ({@link #theoremGuarantee}).
 *
 * <p><b>The full profile.</b> The proof shows that every (ε₀, 0)-DP mechanism is a post-processing
 * of binary randomized response, P = (e^{ε₀}, 1)/(1 + e^{ε₀}) against Q = (1, e^{ε₀})/(1 + e^{ε₀}),
 * so the optimal k-fold pure profile is the hockey-stick divergence of the k-fold products. An
 * outcome with i "flips" has P-mass C(k, i) e^{(k−i)ε₀}/(1 + e^{ε₀})^k and Q-mass C(k, i) e^{iε₀}/(1
 * + e^{ε₀})^k, hence for every ε ≥ 0
 *
 * <pre>
 *   δ_pure(ε) = Σ_i C(k, i) [e^{(k−i)ε₀} − e^{ε} e^{iε₀}]_+ / (1 + e^{ε₀})^k,
 * </pre>
 *
 * the sum running over the i with (k − 2i)ε₀ &gt; ε; at ε = (k − 2i)ε₀ this is the theorem's δ_i. For
 * δ &gt; 0 the canonical (ε₀, δ) pair adds an outcome of probability δ seen only under P (and one seen
 * only under Q); in the k-fold product, P-mass 1 − (1 − δ)^k lands on outcomes of zero Q-mass and
 * the rest is (1 − δ)^k times the pure product, so
 *
 * <pre>
 *   δ(ε) = 1 − (1 − δ)^k (1 − δ_pure(ε)) = [1 − (1 − δ)^k] + (1 − δ)^k δ_pure(ε).
 * </pre>
 *
 * <p><b>Numerics: a certified bracket.</b> Every term is a logarithm, x_i = log C(k, i) − iε₀ − k
 * log1p(e^{−ε₀}) + log(1 − e^{ε − (k−2i)ε₀}), carried with a bound e_i on its absolute error that
 * is derived, not estimated: Java's {@code Math.log}, {@code log1p}, {@code exp} and {@code expm1}
 * are within 1 ulp of the exact result (their specification), every +, −, × and fused
 * multiply-add is within half an ulp, and each such error is added to e_i (with a factor of 2 on
 * every ulp, so that an ulp taken at the computed rather than the exact result cannot fall short).
 * log C(k, i) = Σ_{j ≤ i} log((k − j + 1)/j) is accumulated in double-double arithmetic, so its
 * error is that of the i logarithms (about 3i units of roundoff plus 2u·log C(k, i)) and not that
 * of a long floating-point sum. The sum Σ e^{x_i ± e_i} is then formed with every operation rounded
 * outward ({@code Math.nextUp}/{@code nextDown} past each result), and the δ combination [1 − (1 −
 * δ)^k] + (1 − δ)^k δ_pure, a sum of two non-negative terms (nothing cancels at any k), likewise.
 * The result is a pair lower ≤ exact ≤ upper ({@link #deltaBounds}); {@link #delta} is its upper
 * end. The two ends are a few units of roundoff per composed mechanism apart in relative terms
 * (the magnitude of the logarithms grows like k): 2.2·10⁻¹¹ measured at k = 10⁴, where a
 * 150-digit evaluation in the tests lies between them. Counts up to {@value #MAX_COUNT} are
 * accepted; one δ(ε) costs O(k), ε(δ) about 60 evaluations (grid search, then bisection).
 */
public final class OptimalComposition implements PrivacyProfile {

  /** The largest composition count accepted (memory and time are O(k) per query). */
  public static final int MAX_COUNT = 1_000_000;

  /** Unit roundoff of a double, 2^-53. */
  private static final double U = 0x1.0p-53;

  private final ApproxDp perMechanism;
  private final int count;
  /** log C(k, i) for i = 0..⌊k/2⌋. */
  private final double[] logBinomials;
  /** A bound on the absolute error of each {@link #logBinomials} entry. */
  private final double[] logBinomialErrors;
  /** k log1p(e^{−ε₀}): with −iε₀ this is log of e^{(k−i)ε₀}/(1 + e^{ε₀})^k. */
  private final double logNormalizer;
  /** A bound on the absolute error of {@link #logNormalizer}. */
  private final double logNormalizerError;
  /** k log1p(−δ) = log (1 − δ)^k, as an enclosing interval (both ends 0 when δ = 0). */
  private final double logNoFailureLow;
  private final double logNoFailureHigh;

  private OptimalComposition(ApproxDp perMechanism, int count) {
    this.perMechanism = perMechanism;
    this.count = count;
    double epsilon0 = perMechanism.epsilon();
    int half = count / 2;
    this.logBinomials = new double[half + 1];
    this.logBinomialErrors = new double[half + 1];
    // log C(k, i) = Σ_{j ≤ i} log((k − j + 1)/j), summed as a double-double (hi + lo).
    double hi = 0;
    double lo = 0;
    double loMagnitude = 0;
    double termErrors = 0;
    double loErrors = 0;
    for (int j = 1; j <= half; j++) {
      // the quotient is within u relative (log moves by ≤ 1.01u), the log within 1 ulp
      double term = Math.log((double) (count - j + 1) / j);
      termErrors += 1.01 * U + 2 * Math.ulp(term);
      double sum = hi + term; // TwoSum: hi + term = sum + error exactly
      double back = sum - hi;
      double error = (hi - (sum - back)) + (term - back);
      hi = sum;
      lo += error;
      loMagnitude += Math.abs(error);
      loErrors += 2 * U * loMagnitude;
      logBinomials[j] = hi + lo;
      logBinomialErrors[j] = (termErrors + loErrors + Math.ulp(logBinomials[j])) * (1 + 1e-6);
    }
    double perLog = Math.log1p(Math.exp(-epsilon0));
    this.logNormalizer = count * perLog;
    // e^{−ε₀} within 4u relative moves log1p by ≤ 4u·log1p (z/(1 + z) ≤ log(1 + z)); log1p
    // within 2 ulps; the product by k within half an ulp.
    this.logNormalizerError =
        (count * (4 * U * perLog + 2 * Math.ulp(perLog)) + Math.ulp(logNormalizer)) * (1 + 1e-6);
    if (perMechanism.delta() == 0) {
      this.logNoFailureLow = 0;
      this.logNoFailureHigh = 0;
    } else {
      double perFailure = Math.log1p(-perMechanism.delta()); // < 0, within 1 ulp
      this.logNoFailureLow = Math.nextDown(count * down(perFailure));
      this.logNoFailureHigh = Math.min(0, Math.nextUp(count * up(perFailure)));
    }
  }

  /**
   * The optimal composition of {@code count} mechanisms that are each {@code perMechanism}-DP.
   *
   * @param perMechanism (ε₀, δ) of each mechanism
   * @param count k in [1, {@value #MAX_COUNT}]
   */
  public static OptimalComposition of(ApproxDp perMechanism, int count) {
    Require.nonNull("perMechanism", perMechanism);
    Require.inClosedRange("count", count, 1, MAX_COUNT);
    return new OptimalComposition(perMechanism, count);
  }

  /** (ε₀, δ) of each composed mechanism. */
  public ApproxDp perMechanism() {
    return perMechanism;
  }

  /** k, the number of composed mechanisms. */
  public int count() {
    return count;
  }

  /**
   * The optimal δ(ε) = 1 − (1 − δ)^k (1 − δ_pure(ε)) at any ε ≥ 0, rounded up: the upper end of
   * {@link #deltaBounds}. It is 1 where the exact value lies within 2^-53 of 1 (no double below 1
   * bounds it).
   */
  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return delta(epsilon, true);
  }

  /**
   * An enclosure of the optimal δ(ε): lower ≤ exact ≤ upper, the two ends a few units of roundoff
   * per composed mechanism apart (see the class comment).
   */
  @Override
  public DeltaBounds deltaBounds(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return new DeltaBounds(delta(epsilon, false), delta(epsilon, true));
  }

  /**
   * δ_pure(ε): the hockey-stick divergence E_{e^ε}(P^k ‖ Q^k) of the k-fold randomized-response
   * pair, i.e. the optimal δ(ε) of k composed (ε₀, 0)-DP mechanisms (δ of this composition is
   * ignored), rounded up.
   */
  public double pureDelta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return Math.min(1, pureDelta(epsilon, true));
  }

  /**
   * The smallest ε ≥ 0 with {@link #delta}(ε) ≤ δ (so the result is safe: it is found on the
   * rounded-up profile), {@code +∞} when δ &lt; 1 − (1 − δ₀)^k. The grid point (k − 2i)ε₀ that
   * brackets the answer is found by binary search, then the answer by bisection to adjacent
   * doubles.
   */
  @Override
  public double epsilon(double delta) {
    Require.delta("delta", delta);
    return search(delta, true);
  }

  /**
   * An enclosure of the optimal ε(δ): the upper end is {@link #epsilon}; the lower end is the
   * largest ε found at which the lower end of {@link #deltaBounds} still exceeds δ, so the exact
   * profile exceeds δ there too and the exact ε(δ) is at least that (+∞ when even the lower end
   * of the floor 1 − (1 − δ₀)^k exceeds δ).
   */
  @Override
  public EpsilonBounds epsilonBounds(double delta) {
    Require.delta("delta", delta);
    return new EpsilonBounds(search(delta, false), search(delta, true));
  }

  /**
   * The i-th guarantee of [KOV15, Theorem 3.3], ((k − 2i)ε₀, 1 − (1 − δ)^k (1 − δ_i)), with δ_i evaluated
   * from the theorem's own sum (independently of {@link #delta}) and both numbers rounded up.
   *
   * @param i in [0, ⌊k/2⌋]
   */
  public ApproxDp theoremGuarantee(int i) {
    Require.inClosedRange("i", i, 0, count / 2);
    double epsilon0 = perMechanism.epsilon();
    double[] terms = new double[i];
    for (int l = 0; l < i; l++) {
      // C(k,l)(e^{(k−l)ε₀} − e^{(k−2i+l)ε₀})/(1+e^{ε₀})^k
      //   = exp(log C(k,l) − lε₀ − k log1p(e^{−ε₀}) + log(1 − e^{−2(i−l)ε₀})).
      terms[l] =
          logBinomials[l]
              - l * epsilon0
              - logNormalizer
              + LogMath.log1mExp(-2.0 * (i - l) * epsilon0);
    }
    double epsilon = RoundoffMargin.up((count - 2.0 * i) * epsilon0, 2);
    // an independent evaluation, padded by a roundoff margin (not the enclosure of delta)
    double logNoFailure = count * Math.log1p(-perMechanism.delta());
    double logSum = LogMath.logSumExp(terms);
    if (logSum == Double.NEGATIVE_INFINITY) {
      return new ApproxDp(epsilon, RoundoffMargin.failureFloor(logNoFailure));
    }
    double margin = count / 2 + 1 + count * (2 * Math.log(2) + epsilon0) + Math.abs(logSum);
    double pure = Math.max(RoundoffMargin.deltaUp(Math.exp(logSum), margin), Double.MIN_VALUE);
    return new ApproxDp(epsilon, RoundoffMargin.failureFloorPlus(logNoFailure, pure, 0));
  }

  /** All ⌊k/2⌋ + 1 guarantees of [KOV15, Theorem 3.3], in decreasing ε. Costs O(k²). */
  public List<ApproxDp> theoremGrid() {
    List<ApproxDp> grid = new ArrayList<>(count / 2 + 1);
    for (int i = 0; i <= count / 2; i++) {
      grid.add(theoremGuarantee(i));
    }
    return List.copyOf(grid);
  }

  /** The grid point mε₀ rounded up (at or above the exact product). */
  private double gridPointUp(int m) {
    double epsilon0 = perMechanism.epsilon();
    double product = m * epsilon0;
    return Math.fma(m, epsilon0, -product) > 0 ? Math.nextUp(product) : product;
  }

  /**
   * For {@code upperEnd}, the smallest ε found with δ⁺(ε) ≤ δ; otherwise the largest ε found with
   * δ⁻(ε) &gt; δ (0 when δ⁻(0) ≤ δ). Either search uses only evaluated points and the monotonicity
   * of the exact profile, so the upper end is safe and the lower end is below the exact ε(δ).
   */
  private double search(double delta, boolean upperEnd) {
    double epsilon0 = perMechanism.epsilon();
    if (delta(0, upperEnd) <= delta) {
      return 0;
    }
    // δ_pure vanishes from kε₀ on, where δ(kε₀) = 1 − (1 − δ₀)^k is the profile's floor.
    if (delta(gridPointUp(count), upperEnd) > delta) {
      return Double.POSITIVE_INFINITY;
    }
    // Grid points g_i = (k − 2i)ε₀ decrease in i; find the largest i with g_i > 0 and δ(g_i) ≤ δ.
    int good = 0;
    int bad = (count + 1) / 2; // g at (k+1)/2 is ≤ 0, where δ(0) > δ
    while (bad - good > 1) {
      int mid = (good + bad) >>> 1;
      if (delta(gridPointUp(count - 2 * mid), upperEnd) <= delta) {
        good = mid;
      } else {
        bad = mid;
      }
    }
    double hi = gridPointUp(count - 2 * good);
    // the rounded product is at or below gridPointUp(k − 2·bad), where δ exceeded the target
    double lo = Math.max(0, (count - 2.0 * bad) * epsilon0);
    for (int iteration = 0; iteration < 200 && Math.nextUp(lo) < hi; iteration++) {
      double mid = lo + 0.5 * (hi - lo);
      if (mid <= lo || mid >= hi) {
        break;
      }
      if (delta(mid, upperEnd) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return upperEnd ? hi : lo;
  }

  /**
   * One end of the enclosure of δ(ε) = [1 − (1 − δ₀)^k] + (1 − δ₀)^k δ_pure(ε), every operation
   * rounded outward.
   */
  private double delta(double epsilon, boolean upperEnd) {
    double pure = pureDelta(epsilon, upperEnd);
    // an exact δ within 2^-53 of 1 has no double below 1 above it: the upper end is then 1
    if (perMechanism.delta() == 0) {
      return Math.min(pure, 1);
    }
    if (upperEnd) {
      // 1 − e^a decreases in a: the upper end takes the lower end of log (1 − δ₀)^k
      double floor = up(-Math.expm1(logNoFailureLow));
      double lifted = Math.nextUp(Math.min(1, up(Math.exp(logNoFailureHigh))) * pure);
      return Math.min(Math.nextUp(floor + lifted), 1);
    }
    double floor = Math.max(0, down(-Math.expm1(logNoFailureHigh)));
    double lifted = Math.max(0, Math.nextDown(Math.max(0, down(Math.exp(logNoFailureLow))) * pure));
    return Math.min(1, Math.max(0, Math.nextDown(floor + lifted)));
  }

  /**
   * One end of the enclosure of δ_pure(ε) = Σ_i e^{x_i} over the i with (k − 2i)ε₀ &gt; ε (see the
   * class comment for x_i and its error bound e_i): the sum of e^{x_i ± e_i}, rounded outward.
   * The distance ε − (k − 2i)ε₀ to each grid point is formed by one fused multiply-add (the product
   * exact, one rounding), so its sign is exact: a grid point computed as a rounded product could
   * fall below ε where the true one is above it, and drop a positive term (ε₀ = 0.7, k = 3, δ =
   * 1e-17 answered 2.09999999999999964 below the exact 2.09999999999999983).
   */
  private double pureDelta(double epsilon, boolean upperEnd) {
    double epsilon0 = perMechanism.epsilon();
    int half = count / 2;
    double[] gaps = new double[half + 1];
    int active = 0;
    while (active <= half
        && (gaps[active] = Math.fma(-(count - 2.0 * active), epsilon0, epsilon)) < 0) {
      active++;
    }
    if (active == 0) {
      return 0;
    }
    double[] ends = new double[active];
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < active; i++) {
      double shift = i * epsilon0;
      double gap = LogMath.log1mExp(gaps[i]);
      double x = logBinomials[i] - shift - logNormalizer + gap;
      // the gap within u relative moves log(1 − e^g) by ≤ 1.01u; either branch of log1mExp
      // within 4.1u from its inner function plus 2 ulps of its own; three additions.
      double magnitude = logBinomials[i] + shift + logNormalizer + Math.abs(gap);
      double error =
          (logBinomialErrors[i]
                  + U * shift
                  + logNormalizerError
                  + 5.2 * U
                  + 2 * Math.ulp(gap)
                  + 3 * U * magnitude)
              * (1 + 1e-6);
      ends[i] = upperEnd ? Math.nextUp(x + error) : Math.nextDown(x - error);
      max = Math.max(max, ends[i]);
    }
    double sum = 0;
    for (int i = 0; i < active; i++) {
      double scaled = upperEnd ? Math.nextUp(ends[i] - max) : Math.nextDown(ends[i] - max);
      double term = upperEnd ? up(Math.exp(scaled)) : Math.max(0, down(Math.exp(scaled)));
      sum = upperEnd ? Math.nextUp(sum + term) : Math.nextDown(sum + term);
    }
    if (upperEnd) {
      return up(Math.exp(Math.nextUp(max + up(Math.log(sum)))));
    }
    return Math.max(0, down(Math.exp(Math.nextDown(max + down(Math.log(sum))))));
  }

  /** Above a library result that is within 1 ulp of the exact value (2 ulps: binade edges). */
  private static double up(double value) {
    return Math.nextUp(Math.nextUp(value));
  }

  /** Below a library result that is within 1 ulp of the exact value. */
  private static double down(double value) {
    return Math.nextDown(Math.nextDown(value));
  }

  @Override
  public String toString() {
    return "OptimalComposition[perMechanism=" + perMechanism + ", count=" + count + "]";
  }
}
