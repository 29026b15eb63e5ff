package dev.tradeoff.ensemble.privacy;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p><b>Slices that cannot reach the list are skipped (slice lemma, Δ &gt; 0).</b> Call the
 * multisets with n teachers at H (or at H̄) a slice; its other R = K − n teachers sit at (0, 0),
 * (1, 1), A = (Δ, 0), Ā = (0, Δ), B = (1 − Δ, 1) or B̄ = (1, 1 − Δ). With t the number at (1, 1),
 * B or B̄, the votes are L = L_H + t + U and L′ = L′_H + t + V, where U = Bin(#A, Δ) − Bin(#B,
 * Δ) and V = Bin(#Ā, Δ) − Bin(#B̄, Δ), all independent. So every multiset of the slice has f = E
 * Φ(t + U) − e^{mε} E Ψ(t + V), with Φ(s) = E c(s + L_H) and Ψ(s) = E c(s + L′_H) the arrays the
 * search holds after its first level, s = 0..R. Write E Φ(t + U) − Φ(t) = Σ_{d ≥ 1} P(|U| = d)
 * E[Φ(t + U) − Φ(t) | |U| = d] ≤ P(|U| = 1) m_1 + P(|U| = 2) m_2 + P(|U| ≥ 3) m_{≥3}, where m_d
 * = max(0, max_{|s − t| = d} Φ(s) − Φ(t)) and m_{≥3} = max_s Φ(s) − Φ(t) (s in 0..R: t + U
 * always is; this is at least the maximum over |s − t| ≥ 3). |U| ≥ d needs d successes among at most R Bernoulli(Δ) trials, so by the
 * union bound over d-sets P(|U| = d) ≤ P(|U| ≥ d) ≤ π_d = min(1, C(R, d) Δ^d). The same holds
 * for −Ψ and V. Hence every multiset of the slice has f at most the slice's bound
 *
 * <pre>max_t [Φ(t) − e^{mε} Ψ(t) + X_Φ(t) + e^{mε} X_Ψ(t)],  X = π_1 m_1 + π_2 m_2 + π_3 m_{≥3},</pre>
 *
 * computed in O(R) from Φ and Ψ (π_d rounded up). It is attained up to the excess X: the
 * multisets of the slice without Δ corners reach max_t Φ(t) − e^{mε}Ψ(t), and X is about RΔ
 * times the variation of Φ and Ψ next to t (small for the smooth γ the optimiser produces) plus
 * C(R, 2) Δ² times theirs two apart. The search therefore builds every slice's Φ, Ψ and bound
 * (O(K²) in all), visits the slices in decreasing order of bound, a few in parallel at a time, and
 * stops at the first whose bound plus half the tolerance is below the list's current {@code
 * limit}-th cost: no multiset of it or of any later slice can enter the list, so the list, and
 * its maximum (the certificate), is that of the whole enumeration. Half the tolerance covers the
 * rounding of the bound and of the cost it is compared with (each below a quarter of it, see
 * below), so the certificate's statement is unchanged. K = 201, Δ = 1e-5, m = 5, ε = 0.1, γ_Sub(5):
 * 1.8 CPU-s for the whole enumeration, 0.11 with the skipped slices.
 *
 * <p>{@code PrivacyVerifierTest} checks the reduced search against a brute force over every
 * multiset of all corners (and every ordered assignment for small K) on many seeded random γ,
 * each slice's bound against a direct enumeration of the slice, and the list of the search that
 * skips slices against the sorted costs of the whole reduced space.
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
   * those with at most one corner of each mirror pair, one per multiset of the random corners (its
   * costliest split of the other teachers between (0, 0) and (1, 1): the other splits are
   * near-copies of it as cuts). This is the separation oracle of the optimiser; the first is a
   * maximiser over all multisets by the re-pairing lemma of the class documentation.
   */
  public List<ScoredMultiset> worst(NoiseFunction gamma, int limit) {
    Require.that(gamma.teachers() == k, "gamma", "must have K + 1 = " + (k + 1) + " values",
        gamma.teachers() + 1);
    Require.positive("limit", limit);
    double[] c = new double[k + 1];
    for (int l = 0; l <= k; l++) {
      c[l] = l <= k / 2 ? -gamma.at(l) : gamma.at(l);
    }
    PriorityQueue<ScoredMultiset> heap = new PriorityQueue<>(
        Comparator.comparingDouble(ScoredMultiset::cost));
    if (randomCorners.size() == 2) {
      // Δ = 0: a slice is one scan of the ones split; chunks share their prefixes.
      List<List<ScoredMultiset>> parts = firstLevelChunks().parallelStream()
          .map(chunk -> new Search(c, limit, Double.NEGATIVE_INFINITY)
              .run(chunk[0], chunk[1], chunk[2]))
          .collect(Collectors.toList());
      for (List<ScoredMultiset> part : parts) {
        for (ScoredMultiset s : part) {
          offer(heap, s, limit);
        }
      }
    } else {
      prunedSearch(c, limit, heap);
    }
    List<ScoredMultiset> out = new ArrayList<>(heap);
    out.sort(Comparator.comparingDouble(ScoredMultiset::cost).reversed());
    return out;
  }

  /**
   * Δ &gt; 0: the slices (signed counts of H) in decreasing order of {@link Slice#bound}, a few in
   * parallel at a time, until the next bound is below the {@code limit}-th cost found less half
   * the tolerance (see the class documentation: no multiset of a skipped slice can enter the
   * list).
   */
  private void prunedSearch(double[] c, int limit, PriorityQueue<ScoredMultiset> heap) {
    List<Slice> slices = slices(c);
    slices.sort(Comparator.comparingDouble(Slice::bound).reversed());
    int batch = 2 * Runtime.getRuntime().availableProcessors();
    double margin = tolerance() / 2;
    for (int i = 0; i < slices.size(); i += batch) {
      double floor = heap.size() == limit ? heap.peek().cost() : Double.NEGATIVE_INFINITY;
      if (slices.get(i).bound() + margin < floor) {
        return;
      }
      List<List<ScoredMultiset>> parts = slices.subList(i, Math.min(slices.size(), i + batch))
          .parallelStream()
          .filter(slice -> slice.bound() + margin >= floor)
          .map(slice -> new Search(c, limit, floor).run(slice))
          .collect(Collectors.toList());
      for (List<ScoredMultiset> part : parts) {
        for (ScoredMultiset s : part) {
          offer(heap, s, limit);
        }
      }
    }
  }

  /**
   * One first-level subtree of the search when Δ &gt; 0: {@code count} teachers at corner {@code
   * side} of the first mirror pair (H or H̄), Φ and Ψ of the {@link Search} for them over the
   * shifts 0..K − count, and an upper bound on the privacy cost of every multiset in the slice
   * (the slice lemma of the class documentation).
   */
  record Slice(int side, int count, double[] phi, double[] psi, double bound) {}

  /** Every slice with its bound, Φ and Ψ built by {@link #addItem} from γ's signed values c. */
  List<Slice> slices(double[] c) {
    List<Slice> out = new ArrayList<>();
    for (int side = 0; side < 2; side++) {
      double[] f = c.clone();
      double[] g = c.clone();
      for (int n = 0; n <= k; n++) {
        if (n > 0) {
          addItem(f, k - n + 1, randomCorners.get(side).p());
          addItem(g, k - n + 1, randomCorners.get(side).pPrime());
        } else if (side == 1) {
          continue; // count 0 of the mirror is count 0 of side 0
        }
        double[] phi = Arrays.copyOf(f, k - n + 1);
        double[] psi = Arrays.copyOf(g, k - n + 1);
        out.add(new Slice(side, n, phi, psi, sliceBound(phi, psi, k - n)));
      }
    }
    return out;
  }

  /**
   * The slice lemma's bound max_t [Φ(t) − e^{mε} Ψ(t) + X_Φ(t) + e^{mε} X_Ψ(t)] over the shifts
   * t = 0..R of a slice with R teachers outside the first pair (Φ, Ψ read at 0..R), where X_Φ(t)
   * = π_1 m_1 + π_2 m_2 + π_3 m_{≥3}, m_d = max(0, max_{|s − t| = d} Φ(s) − Φ(t)), m_{≥3} =
   * max_s Φ(s) − Φ(t) (at least the maximum over |s − t| ≥ 3), X_Ψ likewise with Ψ(t) − Ψ(s),
   * and π_d = min(1, C(R, d) Δ^d), rounded up.
   */
  double sliceBound(double[] phi, double[] psi, int r) {
    double delta = setting.teacherDelta();
    double[] pi = new double[4];
    double binom = 1;
    for (int d = 1; d <= 3; d++) {
      binom = binom * Math.max(0, r - d + 1) / d;
      pi[d] = Math.min(1, binom * Math.pow(delta, d) * (1 + 0x1p-40));
    }
    double maxPhi = Double.NEGATIVE_INFINITY;
    double minPsi = Double.POSITIVE_INFINITY;
    for (int s = 0; s <= r; s++) {
      maxPhi = Math.max(maxPhi, phi[s]);
      minPsi = Math.min(minPsi, psi[s]);
    }
    double best = Double.NEGATIVE_INFINITY;
    for (int t = 0; t <= r; t++) {
      double exPhi = 0;
      double exPsi = 0;
      for (int d = 1; d <= 2; d++) {
        double up = 0;
        double down = 0;
        if (t - d >= 0) {
          up = Math.max(up, phi[t - d] - phi[t]);
          down = Math.max(down, psi[t] - psi[t - d]);
        }
        if (t + d <= r) {
          up = Math.max(up, phi[t + d] - phi[t]);
          down = Math.max(down, psi[t] - psi[t + d]);
        }
        exPhi += pi[d] * up;
        exPsi += pi[d] * down;
      }
      exPhi += pi[3] * (maxPhi - phi[t]);
      exPsi += pi[3] * (psi[t] - minPsi);
      best = Math.max(best, phi[t] - expTarget * psi[t] + exPhi + expTarget * exPsi);
    }
    return best;
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
      int[] supportA = {ones, ones};
      int[] supportB = {ones, ones};
      for (int t = 0; t < counts.length; t++) {
        Corner corner = randomCorners.get(t);
        for (int i = 0; i < counts[t]; i++) {
          addBernoulli(a, supportA, corner.p());
          addBernoulli(b, supportB, corner.pPrime());
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

  /**
   * a times one Bernoulli(p), a being 0 outside support[0]..support[1]: a_j ← a_j(1−p) + a_{j−1}p
   * for j = support[0]..support[1] + 1 (elsewhere it gives 0 + 0), then the support narrowed at
   * either end where the new entry is 0 (underflow; the recursion there gives 0 again until the
   * neighbour refills it, which the next step recomputes). The entries are bit for bit those of
   * {@link #addBernoulli(double[], int, double)} on the whole array; at Δ corners the support stays
   * about 60 wide (Δ^j underflows), instead of growing with every teacher.
   */
  static void addBernoulli(double[] a, int[] support, double p) {
    double q = 1 - p;
    int lo = support[0];
    int hi = support[1];
    a[hi + 1] = a[hi] * p;
    for (int j = hi; j > lo; j--) {
      a[j] = a[j] * q + a[j - 1] * p;
    }
    a[lo] *= q;
    support[1] = a[hi + 1] != 0 ? hi + 1 : hi;
    support[0] = a[lo] != 0 || lo == support[1] ? lo : lo + 1;
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
    /** Costs at or below it cannot enter the list (the search's own or the caller's). */
    private double floor;
    /** Half the tolerance: the rounding allowance of a bound compared with the floor. */
    private final double margin;

    Search(double[] c, int limit, double floor) {
      this.limit = limit;
      this.floor = floor;
      this.margin = tolerance() / 2;
      for (int t = 0; t < ps.length; t++) {
        ps[t] = randomCorners.get(t).p();
        qs[t] = randomCorners.get(t).pPrime();
      }
      System.arraycopy(c, 0, phi[0], 0, k + 1);
      System.arraycopy(c, 0, psi[0], 0, k + 1);
    }

    /** The subtree of one slice (Δ &gt; 0), from the slice's Φ and Ψ. */
    List<ScoredMultiset> run(Slice slice) {
      System.arraycopy(slice.phi(), 0, phi[1], 0, slice.phi().length);
      System.arraycopy(slice.psi(), 0, psi[1], 0, slice.psi().length);
      counts[slice.side()] = slice.count();
      below(1, slice.count(), phi[1], psi[1]);
      counts[slice.side()] = 0;
      return new ArrayList<>(heap);
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
          // The slice lemma one level down: the subtree's teachers left are at Δ corners of
          // the later pairs or at (0, 0), (1, 1), so its bound applies to this node's arrays.
          if (t + 1 < levels && sliceBound(cf, cg, k - r - n) + margin < floor) {
            continue;
          }
          below(t + 1, r + n, cf, cg);
        }
        counts[corner] = 0;
      }
    }

    /** The costliest split of the K − r deterministic teachers into (0, 0) and (1, 1). */
    private void leaf(double[] f, double[] g, int r) {
      int best = 0;
      double max = Double.NEGATIVE_INFINITY;
      for (int ones = 0; ones + r <= k; ones++) {
        double cost = f[ones] - expTarget * g[ones];
        if (cost > max) {
          max = cost;
          best = ones;
        }
      }
      if (max > floor) {
        offer(heap, new ScoredMultiset(new CornerMultiset(randomCorners, zero, one,
            k - r - best, best, counts), max), limit);
        if (heap.size() == limit) {
          floor = Math.max(floor, heap.peek().cost());
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
