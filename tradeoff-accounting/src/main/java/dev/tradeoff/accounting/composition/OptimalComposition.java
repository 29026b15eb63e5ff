package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.guarantee.ApproxDp;
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
 * <p><b>Numerics.</b> Every term is a logarithm: log C(k, i) − iε₀ − k log1p(e^{−ε₀}) + log(1 −
 * e^{ε − (k−2i)ε₀}) (with {@link LogMath#log1mExp}), summed by log-sum-exp; the δ combination uses
 * the right-hand form above, a sum of two non-negative terms, so nothing cancels at any k. The
 * relative error is a few units of roundoff times (number of terms + the largest log-magnitude,
 * about k(2 log 2 + ε₀)), and results are rounded up by that margin: for k = 10⁴ the returned δ is
 * within 10⁻¹⁰ relative of the exact value and never below it. Counts up to {@value #MAX_COUNT}
 * are accepted; one δ(ε) costs O(k), ε(δ) about 60 evaluations (grid search, then bisection).
 */
public final class OptimalComposition implements PrivacyProfile {

  /** The largest composition count accepted (memory and time are O(k) per query). */
  public static final int MAX_COUNT = 1_000_000;

  private final ApproxDp perMechanism;
  private final int count;
  /** log C(k, i) for i = 0..⌊k/2⌋. */
  private final double[] logBinomials;
  /** k log1p(e^{−ε₀}): with −iε₀ this is log of e^{(k−i)ε₀}/(1 + e^{ε₀})^k. */
  private final double logNormalizer;
  /** k log1p(−δ) = log (1 − δ)^k. */
  private final double logNoFailure;
  /** Magnitude of the largest logarithm formed; sizes the rounding margin. */
  private final double logMagnitude;

  private OptimalComposition(ApproxDp perMechanism, int count) {
    this.perMechanism = perMechanism;
    this.count = count;
    double epsilon0 = perMechanism.epsilon();
    this.logBinomials = new double[count / 2 + 1];
    for (int i = 0; i < logBinomials.length; i++) {
      logBinomials[i] = LogMath.logBinomial(count, i);
    }
    this.logNormalizer = count * Math.log1p(Math.exp(-epsilon0));
    this.logNoFailure = count * Math.log1p(-perMechanism.delta());
    this.logMagnitude = count * (2 * Math.log(2) + epsilon0) + Math.abs(logNoFailure);
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
   * The optimal δ(ε) = 1 − (1 − δ)^k (1 − δ_pure(ε)) at any ε ≥ 0, rounded up (see the class
   * comment for the relative margin).
   */
  @Override
  public double delta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return combine(logPureDelta(epsilon), count / 2 + 1);
  }

  /**
   * δ_pure(ε): the hockey-stick divergence E_{e^ε}(P^k ‖ Q^k) of the k-fold randomized-response
   * pair, i.e. the optimal δ(ε) of k composed (ε₀, 0)-DP mechanisms (δ of this composition is
   * ignored), rounded up.
   */
  public double pureDelta(double epsilon) {
    Require.nonNegative("epsilon", epsilon);
    return roundedUp(logPureDelta(epsilon), count / 2 + 1);
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
    double epsilon0 = perMechanism.epsilon();
    if (delta(0) <= delta) {
      return 0;
    }
    // δ_pure vanishes from kε₀ on, where δ(kε₀) = 1 − (1 − δ₀)^k is the profile's floor.
    if (delta(gridPointUp(count)) > delta) {
      return Double.POSITIVE_INFINITY;
    }
    // Grid points g_i = (k − 2i)ε₀ decrease in i; find the largest i with g_i > 0 and δ(g_i) ≤ δ.
    int good = 0;
    int bad = (count + 1) / 2; // g at (k+1)/2 is ≤ 0, where δ(0) > δ
    while (bad - good > 1) {
      int mid = (good + bad) >>> 1;
      if (delta(gridPointUp(count - 2 * mid)) <= delta) {
        good = mid;
      } else {
        bad = mid;
      }
    }
    double hi = gridPointUp(count - 2 * good);
    double lo = Math.max(0, (count - 2.0 * bad) * epsilon0);
    for (int iteration = 0; iteration < 200 && Math.nextUp(lo) < hi; iteration++) {
      double mid = lo + 0.5 * (hi - lo);
      if (mid <= lo || mid >= hi) {
        break;
      }
      if (delta(mid) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
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
    return new ApproxDp(epsilon, combine(LogMath.logSumExp(terms), count / 2 + 1));
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
   * log δ_pure(ε), −∞ when it is 0. The distance ε − (k − 2i)ε₀ to each grid point is formed by one
   * fused multiply-add (the product exact, one rounding), so its sign is exact: a grid point
   * computed as a rounded product could fall below ε where the true one is above it, and drop a
   * positive term (ε₀ = 0.7, k = 3, δ = 1e-17 answered 2.09999999999999964 below the exact
   * 2.09999999999999983).
   */
  private double logPureDelta(double epsilon) {
    double epsilon0 = perMechanism.epsilon();
    double[] gaps = new double[count / 2 + 1];
    int active = 0;
    while (active <= count / 2
        && (gaps[active] = Math.fma(-(count - 2.0 * active), epsilon0, epsilon)) < 0) {
      active++;
    }
    double[] terms = new double[active];
    for (int i = 0; i < active; i++) {
      terms[i] = logBinomials[i] - i * epsilon0 - logNormalizer + LogMath.log1mExp(gaps[i]);
    }
    return LogMath.logSumExp(terms);
  }

  /** [1 − (1 − δ)^k] + (1 − δ)^k e^{logPure}, rounded up; {@code terms} sizes the margin. */
  private double combine(double logPure, int terms) {
    if (logPure == Double.NEGATIVE_INFINITY) {
      return RoundoffMargin.failureFloor(logNoFailure);
    }
    double pure = roundedUp(logPure, terms);
    return perMechanism.delta() == 0 ? pure : RoundoffMargin.failureFloorPlus(logNoFailure, pure, 0);
  }

  /** e^log rounded up; a positive δ that underflows becomes the smallest positive double. */
  private double roundedUp(double log, int terms) {
    if (log == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    double value = RoundoffMargin.deltaUp(Math.exp(log), terms + logMagnitude + Math.abs(log));
    return Math.max(value, Double.MIN_VALUE);
  }

  @Override
  public String toString() {
    return "OptimalComposition[perMechanism=" + perMechanism + ", count=" + count + "]";
  }
}
