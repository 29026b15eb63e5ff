package dev.tradeoff.ensemble.privacy;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.Collectors;

/**
 * The exact privacy verifier of DaRRM [DaRRM24]: DaRRM_γ is (mε,
 * δ)-DP iff the privacy cost
 *
 * <pre>f = Σ_{l ≤ (K−1)/2} (e^{mε} α′_l − α_l) γ(l) + Σ_{l ≥ (K+1)/2} (α_l − e^{mε} α′_l) γ(l)</pre>
 *
 * never exceeds e^{mε} − 1 + 2δ (Lemma 3.4), where α, α′ are the Poisson-binomial pmfs of the
 * teachers' votes on adjacent datasets. f is multilinear in the teachers' pairs (p_i, p′_i), so its
 * maximum is attained with every pair at a corner of F_i (Lemma 5.1: (0, 0), (1, 1), H = (e^ε +
 * Δ, 1 − Δ)/(e^ε + 1), its mirror H̄ and, when Δ &gt; 0, A = (Δ, 0), Ā = (0, Δ), B = (1, 1 − Δ),
 * B̄ = (1 − Δ, 1)) and depends only on how many teachers sit at each corner.
 *
 * <p><b>Mirror pairs never both occur (re-pairing lemma).</b> f depends on the teachers only
 * through α and α′, that is through the multiset of the p_i and, separately, the multiset of the
 * p′_i: how the two are paired does not matter. A teacher at a corner (x, y) and one at its mirror
 * (y, x) can therefore be re-paired into (x, x) and (y, y) without changing f. A diagonal pair
 * (t, t) is the mixture (1 − t)·(0, 0) + t·(1, 1) of the two deterministic corners, and f is
 * linear in each teacher's pair, so f is at most its value at one of the four ways to put the two
 * re-paired teachers at (0, 0) or (1, 1). Each step lowers the number of teachers at non-diagonal
 * corners by two, so by induction the maximum of f over all multisets equals its maximum over the
 * multisets that use at most one corner of each mirror pair {H, H̄}, {A, Ā}, {B, B̄}. The verifier
 * enumerates exactly those: a signed count per pair (positive: the first corner, negative: its
 * mirror), fewer than 8 C(K + 3, 3) multisets of random corners when Δ &gt; 0 (instead of C(K + 6,
 * 6)) and 2K + 1 when Δ = 0 (instead of C(K + 2, 2)), each with every split of the remaining
 * teachers between (0, 0) and (1, 1):
 *
 * <ul>
 *   <li>the corners (0, 0) and (1, 1) only shift both sums by the number of teachers at (1, 1), so
 *       for each multiset of the other (random) corners every shift is evaluated from one pair of
 *       pmfs;
 *   <li>the mirror pairs are enumerated depth-first, one pair per level, so each node is its parent
 *       times one more Bernoulli factor: the direct positive recursion α_j ← α_j (1 − p) + α_{j−1}
 *       p (no FFT, no characteristic function, every term non-negative), carried out on the
 *       γ-weighted sums Σ_j c(s + j) α_j for every shift s at once (see {@code Search}), which
 *       makes a node cost O(K − r) instead of O(r (K − r));
 *   <li>the first level is split into chunks of about equal work across the common fork-join
 *       pool.
 * </ul>
 *
 * <p>{@code PrivacyVerifierTest} checks the reduced search against a brute force over every
 * multiset of all corners (and every ordered assignment for small K) on many seeded random γ.
 *
 * <p><b>Tolerance.</b> Φ and Ψ (below) are convex combinations of values in [−1, 1] built with at
 * most K multiply-adds each, so each is correct to about K·2^−53 and f = Φ − e^{mε}Ψ to (1 +
 * e^{mε})·K·2^−53. The tolerance 4(K + 1) · 2^−53 · (1 + e^{mε}) (about 2e-12 for K = 101, mε = 3)
 * bounds this evaluation error with margin (it also covers the rounding of the corners and of the
 * bound). A γ passes when max f ≤ bound + {@link #tolerance}: a violation below it cannot be told
 * from rounding. What a certificate proves is stated by {@link PrivacyCertificate#certifiedDelta}:
 * the true max f is at most the computed one plus the tolerance, so DaRRM_γ is (mε, δ + max(0,
 * tolerance − slack)/2)-DP (Lemma 3.4 is an equivalence for every δ). The tolerance decides exact
 * ties such as γ ≡ 1 for m ≥ (K + 1)/2 in the pure case (Theorem 4.1), where max f = e^{mε} − 1
 * exactly, and γ's the optimiser leaves on the bound. {@link #certifyOrScale} never needs it: a
 * scaled γ sits at least the tolerance below the bound, so it is private at the requested δ.
 */
public final class PrivacyVerifier {

  /** Chunks of about equal work per side of the first mirror pair (the parallel tasks). */
  private static final int CHUNKS = 16;

  private final DarrmSetting setting;
  private final int k;
  private final double expTarget;
  private final double bound;
  /** The random corners as consecutive mirror pairs: H, H̄ (then A, Ā, B, B̄ when Δ &gt; 0). */
  private final List<Corner> randomCorners;
  private final Corner zero;
  private final Corner one;

  public PrivacyVerifier(DarrmSetting setting) {
    this.setting = Require.nonNull("setting", setting);
    this.k = setting.teachers();
    this.expTarget = setting.expTarget();
    this.bound = setting.privacyBound();
    List<Corner> all = Corner.of(setting.epsilon(), setting.teacherDelta());
    this.zero = all.get(0);
    this.one = all.get(1);
    this.randomCorners = all.subList(2, all.size());
  }

  public DarrmSetting setting() {
    return setting;
  }

  /** The decision tolerance 4(K + 1) · 2^−53 · (1 + e^{mε}) (see the class documentation). */
  public double tolerance() {
    return 4.0 * (k + 1) * 0x1p-53 * (1 + expTarget);
  }

  /** Certifies γ: max f over all corner multisets, the bound, the slack and a worst case. */
  public PrivacyCertificate certify(NoiseFunction gamma) {
    return certificate(worst(gamma, 1).get(0));
  }

  /** The certificate for the maximum of the exact search ({@link #worst(NoiseFunction, int)}). */
  private PrivacyCertificate certificate(ScoredMultiset best) {
    return new PrivacyCertificate(best.cost(), bound, bound - best.cost(), tolerance(),
        best.multiset().asCornerCounts(), setting.target());
  }

  /**
   * γ if it passes, otherwise γ scaled down until its computed max f is at least the tolerance
   * below the bound (f is linear in γ, so the factor is about (bound − 2·tolerance) / max f): the
   * true max f is then at most the bound, so the scaled γ is private at the requested δ itself,
   * not only at the certificate's slightly larger δ (scaling to max f = bound, as before, could
   * land a few ulps above the largest private constant: K = 11, m = 3). Each with its certificate.
   */
  public Certified certifyOrScale(NoiseFunction gamma) {
    PrivacyCertificate c = certify(gamma);
    if (c.isPrivate()) {
      return new Certified(gamma, c, 1);
    }
    double factor = Math.max(0, (bound - 2 * tolerance()) / c.maxPrivacyCost());
    for (int attempt = 0; attempt < 8; attempt++) {
      NoiseFunction scaled = gamma.scaled(factor);
      PrivacyCertificate sc = certify(scaled);
      if (sc.slack() >= tolerance()) {
        return new Certified(scaled, sc, factor);
      }
      factor = Math.nextDown(factor * (1 - 1e-12));
    }
    throw new IllegalStateException("could not scale gamma into the privacy bound");
  }

  /** A γ that has passed the verifier, its certificate and the factor it was scaled by. */
  public record Certified(NoiseFunction gamma, PrivacyCertificate certificate, double scale) {}

  /**
   * The constraint vector w of a multiset: f(γ) = Σ_u w_u γ(u) over the free values u = 0, …, (K −
   * 1)/2, with w_u = (e^{mε} α′_u − α_u) + (α_{K−u} − e^{mε} α′_{K−u}).
   */
  public double[] constraintVector(CornerMultiset multiset) {
    double[][] pmfs = multiset.pmfs(k);
    double[] a = pmfs[0];
    double[] b = pmfs[1];
    double[] w = new double[(k + 1) / 2];
    for (int u = 0; u < w.length; u++) {
      w[u] = (expTarget * b[u] - a[u]) + (a[k - u] - expTarget * b[k - u]);
    }
    return w;
  }

  /** The privacy cost f for one multiset, evaluated directly (for tests and reporting). */
  public double privacyCost(NoiseFunction gamma, CornerMultiset multiset) {
    double[] w = constraintVector(multiset);
    double f = 0;
    for (int u = 0; u < w.length; u++) {
      f += w[u] * gamma.at(u);
    }
    return f;
  }

  /**
   * The {@code limit} corner multisets with the largest privacy cost for γ, largest first, among
   * those with at most one corner of each mirror pair (the separation oracle of the optimiser; the
   * first is a maximiser over all multisets by the re-pairing lemma of the class documentation).
   */
  public List<ScoredMultiset> worst(NoiseFunction gamma, int limit) {
    Require.that(gamma.teachers() == k, "gamma", "must have K + 1 = " + (k + 1) + " values",
        gamma.teachers() + 1);
    Require.positive("limit", limit);
    double[] c = new double[k + 1];
    for (int l = 0; l <= k; l++) {
      c[l] = l <= k / 2 ? -gamma.at(l) : gamma.at(l);
    }
    List<List<ScoredMultiset>> parts = firstLevelChunks().parallelStream()
        .map(chunk -> new Search(c, limit).run(chunk[0], chunk[1], chunk[2]))
        .collect(Collectors.toList());
    PriorityQueue<ScoredMultiset> heap = new PriorityQueue<>(
        Comparator.comparingDouble(ScoredMultiset::cost));
    for (List<ScoredMultiset> part : parts) {
      for (ScoredMultiset s : part) {
        offer(heap, s, limit);
      }
    }
    List<ScoredMultiset> out = new ArrayList<>(heap);
    out.sort(Comparator.comparingDouble(ScoredMultiset::cost).reversed());
    return out;
  }

  /**
   * The parallel tasks {side, from, to}: counts from..to − 1 of the first pair's corner {@code
   * side} (the mirror only from 1: count 0 is side 0's), cut into chunks of about equal work (the
   * subtree below count n has about (K − n + 1)^levels nodes).
   */
  private List<int[]> firstLevelChunks() {
    int levels = randomCorners.size() / 2;
    List<int[]> chunks = new ArrayList<>();
    for (int side = 0; side < 2; side++) {
      double total = 0;
      for (int n = side; n <= k; n++) {
        total += Math.pow(k - n + 1, levels);
      }
      double acc = 0;
      int from = side;
      for (int n = side; n <= k; n++) {
        acc += Math.pow(k - n + 1, levels);
        if (acc >= total / CHUNKS || n == k) {
          chunks.add(new int[] {side, from, n + 1});
          from = n + 1;
          acc = 0;
        }
      }
    }
    return chunks;
  }

  private static void offer(PriorityQueue<ScoredMultiset> heap, ScoredMultiset s, int limit) {
    if (heap.size() < limit) {
      heap.add(s);
    } else if (s.cost() > heap.peek().cost()) {
      heap.poll();
      heap.add(s);
    }
  }

  /** A corner multiset with its privacy cost. */
  public record ScoredMultiset(CornerMultiset multiset, double cost) {}

  /**
   * Counts of teachers at each corner: {@code zeros} at (0, 0), {@code ones} at (1, 1) and {@code
   * counts[t]} at the t-th random corner.
   */
  public record CornerMultiset(List<Corner> randomCorners, Corner zero, Corner one, int zeros,
      int ones, int[] counts) {

    public CornerMultiset {
      randomCorners = List.copyOf(randomCorners);
      counts = counts.clone();
    }

    /** α (index 0) and α′ (index 1) over 0..K by the direct recursion. */
    double[][] pmfs(int k) {
      double[] a = new double[k + 1];
      double[] b = new double[k + 1];
      a[ones] = 1;
      b[ones] = 1;
      int size = ones;
      for (int t = 0; t < counts.length; t++) {
        Corner corner = randomCorners.get(t);
        for (int i = 0; i < counts[t]; i++) {
          addBernoulli(a, size, corner.p());
          addBernoulli(b, size, corner.pPrime());
          size++;
        }
      }
      return new double[][] {a, b};
    }

    /** The non-empty entries as corner counts. */
    public List<CornerCount> asCornerCounts() {
      List<CornerCount> out = new ArrayList<>();
      if (zeros > 0) {
        out.add(new CornerCount(zero, zeros));
      }
      if (ones > 0) {
        out.add(new CornerCount(one, ones));
      }
      for (int t = 0; t < counts.length; t++) {
        if (counts[t] > 0) {
          out.add(new CornerCount(randomCorners.get(t), counts[t]));
        }
      }
      return out;
    }
  }

  /** a[0..size] (support 0..size−1 before) times one Bernoulli(p): a_j ← a_j(1−p) + a_{j−1}p. */
  static void addBernoulli(double[] a, int top, double p) {
    double q = 1 - p;
    a[top + 1] = a[top] * p;
    for (int j = top; j >= 1; j--) {
      a[j] = a[j] * q + a[j - 1] * p;
    }
    a[0] *= q;
  }

  /**
   * One depth-first search over signed counts of the mirror pairs, for a range of counts of the
   * first pair.
   *
   * <p>Instead of the pmfs themselves it carries, for the r teachers fixed so far, Φ(s) = Σ_j
   * c(s + j) α_j and Ψ(s) = Σ_j c(s + j) α′_j for every shift s = 0..K − r (the number of
   * teachers at (1, 1)), where c(l) = ±γ(l) is the sign-adjusted γ of Lemma 3.4. One more teacher
   * with probability p maps Φ(s) to (1 − p) Φ(s) + p Φ(s + 1), the pmf recursion moved onto c, so
   * each node costs O(K − r) and every leaf reads f = Φ(ones) − e^{mε} Ψ(ones) for all splits of
   * the remaining teachers between (0, 0) and (1, 1) directly. All weights are non-negative.
   */
  private final class Search {
    private final int limit;
    private final int levels = randomCorners.size() / 2;
    /** phi[t], psi[t]: Φ, Ψ once the first t pairs are fixed. */
    private final double[][] phi = new double[levels + 1][k + 1];
    private final double[][] psi = new double[levels + 1][k + 1];
    private final int[] counts = new int[randomCorners.size()];
    private final double[] ps = new double[randomCorners.size()];
    private final double[] qs = new double[randomCorners.size()];
    private final PriorityQueue<ScoredMultiset> heap =
        new PriorityQueue<>(Comparator.comparingDouble(ScoredMultiset::cost));
    private double floor = Double.NEGATIVE_INFINITY;

    Search(double[] c, int limit) {
      this.limit = limit;
      for (int t = 0; t < ps.length; t++) {
        ps[t] = randomCorners.get(t).p();
        qs[t] = randomCorners.get(t).pPrime();
      }
      System.arraycopy(c, 0, phi[0], 0, k + 1);
      System.arraycopy(c, 0, psi[0], 0, k + 1);
    }

    /** The subtrees with n = from..to − 1 teachers at corner {@code side} of the first pair. */
    List<ScoredMultiset> run(int side, int from, int to) {
      double[] f = phi[1];
      double[] g = psi[1];
      System.arraycopy(phi[0], 0, f, 0, k + 1);
      System.arraycopy(psi[0], 0, g, 0, k + 1);
      for (int n = 0; n < to; n++) {
        if (n > 0) {
          addItem(f, k - n + 1, ps[side]);
          addItem(g, k - n + 1, qs[side]);
        }
        if (n >= from) {
          counts[side] = n;
          below(1, n, f, g);
        }
      }
      counts[side] = 0;
      return new ArrayList<>(heap);
    }

    /** Level t ≥ 1 (pairs 0..t − 1 fixed, r teachers): the next pair, or the leaf. */
    private void below(int t, int r, double[] f, double[] g) {
      if (t == levels) {
        leaf(f, g, r);
        return;
      }
      double[] cf = phi[t + 1];
      double[] cg = psi[t + 1];
      for (int side = 0; side < 2; side++) {
        int corner = 2 * t + side;
        System.arraycopy(f, 0, cf, 0, k - r + 1);
        System.arraycopy(g, 0, cg, 0, k - r + 1);
        for (int n = 0; n <= k - r; n++) {
          if (n > 0) {
            addItem(cf, k - r - n + 1, ps[corner]);
            addItem(cg, k - r - n + 1, qs[corner]);
          } else if (side == 1) {
            continue; // count 0 of the mirror is count 0 of side 0
          }
          counts[corner] = n;
          below(t + 1, r + n, cf, cg);
        }
        counts[corner] = 0;
      }
    }

    /** Every split of the K − r deterministic teachers into (0, 0) and (1, 1). */
    private void leaf(double[] f, double[] g, int r) {
      for (int ones = 0; ones + r <= k; ones++) {
        double cost = f[ones] - expTarget * g[ones];
        if (cost > floor) {
          offer(heap, new ScoredMultiset(new CornerMultiset(randomCorners, zero, one,
              k - r - ones, ones, counts), cost), limit);
          if (heap.size() == limit) {
            floor = heap.peek().cost();
          }
        }
      }
    }
  }

  /** One more teacher with probability p: v(s) ← (1 − p) v(s) + p v(s + 1), s = 0..top − 1. */
  static void addItem(double[] v, int top, double p) {
    double q = 1 - p;
    for (int s = 0; s < top; s++) {
      v[s] = q * v[s] + p * v[s + 1];
    }
  }
}
