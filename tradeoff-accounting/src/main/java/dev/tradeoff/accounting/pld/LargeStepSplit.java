package dev.tradeoff.accounting.pld;

import java.util.ArrayList;
import java.util.List;

/**
 * Bounds on δ(ε) of an n-fold composition of one discretized privacy loss distribution, split by
 * the number of steps whose loss is large: what a Poisson-sampled Gaussian with a small rate needs
 * at δ far below 1e-15, where neither the exponentially tilted transforms nor the direct
 * convolution of {@link Composer} can certify the answer.
 *
 * <p><b>Why the tilted transform fails there.</b> The per-step loss of a sampled Gaussian with rate
 * q and noise σ has, in its upper tail, a Gaussian law in the output x: L ≈ log q + (2x − 1)/(2σ²)
 * with probability q·Φ̄(x − 1), so that the composed tail at a tiny δ is made of a single step with
 * a huge loss. A tilt e^{θS} of the whole sum cannot make that event typical: at the rate that puts
 * a single step's tilted loss at the answer, the tilted law still has almost no large step; at the
 * Chernoff-optimal rate the tilted law is bimodal (no large step, or one far above the answer) and
 * the answer lies between the modes. For σ = 1.74, q = 1.57e-4, 594 steps at δ = 1e-50 the
 * tilted round-off bound at the answer was 2.3e-36, 14 orders above δ, and the direct convolution
 * needs more than its work limit on any grid fine enough.
 *
 * <p><b>The split.</b> Let the per-step finite masses be m = b + t, b on the grid indices ≤ c (the
 * bulk), t above c (the large steps), p = Σt, β = Σb. The composed law of the finite part is
 * m^{*n} = Σ_k C(n, k) b^{*(n−k)} * t^{*k}, and the composition's δ(ε) is Pr[L = ∞] + H_ε(m^{*n}),
 * H_ε(μ) = Σ_s μ(s)(1 − e^{ε − sΔ})_+, which is linear and has non-negative weights. So
 *
 * <pre>  H_ε(m^{*n}) = H_ε(b^{*n}) + n·H_ε(b^{*(n−1)} * t) + R,
 *   0 ≤ R ≤ Σ_{k≥2} C(n,k) β^{n−k} p^k ≤ max(1, β)^n (e^{np} − 1 − np) ≤ max(1, β)^n (np)²e^{np}/2,</pre>
 *
 * using C(n, k) ≤ n^k/k! and H_ε(μ) ≤ Σμ. The split index c is the lowest at which the bound on R
 * is at most {@value #REMAINDER_SHARE}·δ: the upper bound adds it, the lower bound drops R (it is
 * non-negative). The bulk is bounded by c per step, so its tilted transforms resolve b^{*n}
 * (H_ε(b^{*n}) is the δ(ε), without Pr[L = ∞], of the composition of b, with its round-off and
 * folded tails in the safe direction). The one-large-step term is a convolution evaluated only in
 * the functional: since (1 − e^{ε − (x + y)})_+ = (1 − e^{(ε − x) − y})_+,
 *
 * <pre>  H_ε(b^{*(n−1)} * t) = Σ_x b^{*(n−1)}(x)·w(x),  w(x) = H_{ε−x}(t),</pre>
 *
 * and w is non-decreasing in x with w ≤ p. With the computed masses M(x) of b^{*(n−1)} (a
 * transform over a window, plain or tilted), errors e(x) whose tail sums are bounded by the
 * round-off bound R(g) ≥ Σ_{h≥g}|e(h)|, Abel summation gives Σ|e(x)|w(x) = Σ_g (w(g) − w(g−1))
 * Σ_{h≥g}|e(h)| ≤ Σ_g max(0, w(g) − w(g−1))·R(g) (w = 0 below the window). The window's circular
 * folds act as in {@link Composer}: mass from above lands lower, where w is smaller, and is at most
 * the composition's folded mass (its Pr[L = ∞]) times max w ≤ p, which the upper bound adds; mass
 * from below lands higher, where w is larger, and is at most its deficit times p, which the lower
 * bound subtracts. w is summed in one pass from the top of t with two suffix sums of non-negative
 * terms, S(J) = Σ_{j≥J} t_j e^{−(j−J)Δ} and D(J) = Σ_{j≥J} t_j(1 − e^{−(j−J)Δ}) = D(J+1) +
 * (1 − e^{−Δ})S(J+1), and w = D(J) + (1 − e^{−r})S(J) with r = (g + J)Δ − ε > 0, J the lowest
 * index of t with a loss above ε − gΔ: no cancellation, each value within a relative (1 + u)^{4T}
 * of the truth over T tail points (u the unit round-off), widened by that in the safe direction.
 * The round-off of the tilted transform is relative to the tilted law of the bulk, which has no
 * large steps, so its bound falls with x faster than w grows.
 *
 * <p>A lower bound on ε(δ) is the largest ε whose lower bound on δ exceeds δ, an upper bound the
 * smallest ε whose upper bound is at most δ, both found by bisection; only evaluated points are
 * returned, and the true δ(·) is non-increasing, so both are valid whatever the bounds' shape.
 */
final class LargeStepSplit {

  /** The bound on the terms with two or more large steps, relative to the δ asked. */
  static final double REMAINDER_SHARE = 1e-4;

  private static final double U = Fft.UNIT_ROUNDOFF;

  private final boolean pessimistic;
  private final long count;
  private final double interval;
  private final double infinity;
  private final double remainder;
  private final double tailTotal;
  private final long tailOffset;
  private final double[] suffix;
  private final double[] spread;
  private final double weightWidening;
  private final List<PrivacyLossDistribution> bulk;
  private final List<Weighted> bulkOneLess;

  /** A composition of n − 1 bulk steps and the round-off bound at each index of its window. */
  private record Weighted(PrivacyLossDistribution distribution, long start, double[] roundOff) {}

  private LargeStepSplit(boolean pessimistic, long count, double interval, double infinity,
      double remainder, double tailTotal, long tailOffset, double[] suffix, double[] spread,
      List<PrivacyLossDistribution> bulk, List<Weighted> bulkOneLess) {
    this.pessimistic = pessimistic;
    this.count = count;
    this.interval = interval;
    this.infinity = infinity;
    this.remainder = remainder;
    this.tailTotal = tailTotal;
    this.tailOffset = tailOffset;
    this.suffix = suffix;
    this.spread = spread;
    this.weightWidening = 1 + (4.0 * suffix.length + 16) * 1.01 * U;
    this.bulk = bulk;
    this.bulkOneLess = bulkOneLess;
  }

  /**
   * The split of the composition of {@code term} for a question at δ, or null where it does not
   * apply (one step, a deficit, or no split index whose remainder is small enough).
   *
   * @param composer composes the bulk (its tail mass and point budget)
   * @param infinity Pr[L = ∞] of the composition, 1 − (1 − Pr[L₁ = ∞])^n
   * @param aim the loss near which the answer is expected: the tilted transforms aim there
   */
  static LargeStepSplit of(Composer composer, Composer.Term term, double infinity, double delta,
      double aim) {
    PrivacyLossDistribution d = term.distribution();
    long n = term.count();
    if (n < 2 || d.deficit() != 0 || !(delta > 0) || !Double.isFinite(aim)) {
      return null;
    }
    double[] m = d.massesView();
    // The lowest split index c whose remainder bound (np)²e^{np}/2 is at most the share of δ.
    double limit = Math.sqrt(2 * REMAINDER_SHARE * delta) / 1.01;
    double above = 0;
    int split = m.length - 1;
    while (split > 0 && n * (above + m[split]) * (1 + 2.0 * m.length * U) <= limit) {
      above += m[split];
      split--;
    }
    if (split >= m.length - 1 || above == 0) {
      return null;
    }
    double p = above * (1 + 2.0 * m.length * U);
    double beta = 0;
    for (int i = 0; i <= split; i++) {
      beta += m[i];
    }
    beta *= 1 + 2.0 * m.length * U;
    double x = n * p;
    double remainder = Math.exp(n * Math.log(Math.max(1, beta))) * x * x / 2 * Math.exp(x)
        * (1 + 1e-9);
    double interval = d.interval();
    double[] t = java.util.Arrays.copyOfRange(m, split + 1, m.length);
    double[] suffix = new double[t.length + 1];
    double[] spread = new double[t.length + 1];
    double decay = Math.exp(-interval);
    double rise = -Math.expm1(-interval);
    for (int j = t.length - 1; j >= 0; j--) {
      spread[j] = spread[j + 1] + rise * suffix[j + 1];
      suffix[j] = t[j] + decay * suffix[j + 1];
    }
    PrivacyLossDistribution b = new PrivacyLossDistribution(d.discretization(), interval,
        d.offset(), java.util.Arrays.copyOf(m, split + 1), 0, 0);
    double splitLoss = (d.offset() + split) * interval;
    List<PrivacyLossDistribution> bulk = candidates(
        composer.compose(List.of(new Composer.Term(b, n))), List.of(aim));
    List<Weighted> oneLess = new ArrayList<>();
    double reach = Math.max(aim - splitLoss, interval);
    for (PrivacyLossDistribution c : candidates(
        composer.compose(List.of(new Composer.Term(b, n - 1))), List.of(reach, reach / 2))) {
      oneLess.add(weighted(c));
    }
    return new LargeStepSplit(d.discretization() == Discretization.PESSIMISTIC, n, interval,
        infinity, remainder, p, d.offset() + split + 1, suffix, spread, bulk, oneLess);
  }

  /** The composition and its transforms tilted at the given losses (each a valid bound). */
  private static List<PrivacyLossDistribution> candidates(
      PrivacyLossDistribution composed, List<Double> aims) {
    List<PrivacyLossDistribution> all = new ArrayList<>();
    all.add(composed);
    PrivacyLossDistribution.Refinement refinement = composed.refinement();
    if (refinement != null) {
      for (double aim : aims) {
        all.add(refinement.atLoss(aim, 0));
      }
    }
    return all;
  }

  private static Weighted weighted(PrivacyLossDistribution d) {
    PrivacyLossDistribution.RoundOff r = d.roundOff();
    boolean exact = r.plainL2() == 0 && r.tiltRate() == 0;
    long start = exact ? d.offset() : Math.min(d.offset(), r.start());
    long end = exact ? d.offset() + d.size() : Math.max(d.offset() + d.size(), r.end());
    double[] bound = new double[(int) (end - start)];
    for (int i = 0; i < bound.length; i++) {
      bound[i] = r.above(start + i);
    }
    return new Weighted(d, start, bound);
  }

  /**
   * A bound on the composition's δ(ε) on this split's side: an upper bound if the distribution is
   * pessimistic, a lower bound if optimistic.
   */
  double delta(double epsilon) {
    double bulkTerm = pessimistic ? Double.POSITIVE_INFINITY : 0;
    for (PrivacyLossDistribution d : bulk) {
      double v = d.plainDelta(epsilon);
      bulkTerm = pessimistic ? Math.min(bulkTerm, v) : Math.max(bulkTerm, v);
    }
    double oneLarge = pessimistic ? Double.POSITIVE_INFINITY : 0;
    long first = firstAbove(epsilon);
    for (Weighted w : bulkOneLess) {
      double v = oneLargeStep(w, epsilon, first);
      oneLarge = pessimistic ? Math.min(oneLarge, v) : Math.max(oneLarge, v);
    }
    if (pessimistic) {
      return Math.min(1, (infinity + bulkTerm + count * oneLarge + remainder) * (1 + 4 * U));
    }
    return Math.max(0, (infinity + bulkTerm + count * oneLarge) * (1 - 4 * U));
  }

  /** The smallest grid index K with KΔ > ε, as the grid's losses are computed. */
  private long firstAbove(double epsilon) {
    long k = (long) Math.floor(epsilon / interval) + 1;
    while ((k - 1) * interval > epsilon) {
      k--;
    }
    while (k * interval <= epsilon) {
      k++;
    }
    return k;
  }

  /** w(g) = H_{ε−gΔ}(t), as computed (within the relative widening of the exact value). */
  private double weight(long g, double epsilon, long first) {
    long j = Math.max(first - g, tailOffset);
    long index = j - tailOffset;
    if (index >= suffix.length - 1) {
      return 0;
    }
    return spread[(int) index] - Math.expm1(epsilon - (g + j) * interval) * suffix[(int) index];
  }

  /** The bound on this side of H_ε(b^{*(n−1)} * t) from one composition of the bulk. */
  private double oneLargeStep(Weighted w, double epsilon, long first) {
    PrivacyLossDistribution d = w.distribution();
    double[] masses = d.massesView();
    long offset = d.offset();
    double sum = 0;
    double error = 0;
    double previous = 0;
    for (int i = 0; i < w.roundOff().length; i++) {
      long g = w.start() + i;
      double weight = weight(g, epsilon, first);
      long k = g - offset;
      if (k >= 0 && k < masses.length) {
        sum += masses[(int) k] * weight;
      }
      if (weight > previous) {
        error += (weight - previous) * w.roundOff()[i];
      }
      previous = weight;
    }
    int n = w.roundOff().length;
    double summing = 1 + 2.0 * (n + 1) * U;
    // Underflowed products in the weights: at most 8 smallest subnormals per tail point, times a
    // total mass of at most 1.01.
    double flushed = 8.0 * suffix.length * Double.MIN_VALUE * 1.01;
    if (pessimistic) {
      return (sum * summing * weightWidening + error * summing * weightWidening
          + d.infinityMass() * tailTotal + flushed) * (1 + 4 * U);
    }
    return Math.max(0, (sum / summing / weightWidening - error * summing * weightWidening
        - d.deficit() * tailTotal - flushed) * (1 - 4 * U));
  }
}
