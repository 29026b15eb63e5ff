package dev.tradeoff.ensemble.optimize;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The DaRRM optimiser of [DaRRM24, Section 5 (Eqs. 2–3) and Appendix C]: a linear program over the
 * (K + 1)/2 free values of a symmetric γ, solved by an {@link LpSolver} (OR-Tools GLOP unless one
 * is given; OR-Tools is an optional dependency, and without it {@link #optimize} says so).
 *
 * <p>The privacy constraints of Lemma 5.1, one per corner multiset (O(K^4) of them when Δ &gt;
 * 0 once mirror pairs are excluded, see {@link PrivacyVerifier}), are generated lazily (cutting
 * planes). The LP starts from the worst multisets of γ ≡ 1, γ_Sub(⌊m⌋) and γ_Sub(2⌊m⌋ − 1); after
 * each solve the exact verifier returns up to 400 multisets whose privacy cost exceeds the bound
 * most, of which up to 48 with pairwise different directions become new constraints. The LP is
 * kept across rounds and re-solved from its previous basis (GLOP: dual simplex); cuts that
 * stay slack for 15 rounds in a row are dropped from it (see {@code IncrementalLp}), and the
 * verifier finds them again if they are violated later.
 *
 * <p><b>Stabilisation and stopping.</b> Every LP point scaled by bound / max f is private; the best
 * private γ seen is the incumbent, and the LP optimum (less the tie-break, below) is a lower bound
 * on the objective of every private γ. Separation is in-out (Ben-Ameur and Neto, 2007): the
 * verifier also searches the midpoint of the incumbent and the LP point; cuts violated there are
 * violated at the LP point too and lie nearer the optimum, and a private midpoint becomes the
 * incumbent. The loop ends when the LP point is private (up to the verifier's tolerance, or 1e-9
 * relative, then scaled), or when the incumbent is within 1e-4 (relative) of the lower bound; it
 * returns the better of the two, with the exact verifier's certificate. The objective carries a
 * tie-break of 1e-9 (relative) towards larger γ: far from u ≈ (1 − p̄)K the surrogate's
 * coefficients vanish and the LP would otherwise wander between vertices there. Values within
 * 1e-9 of 0 or 1 are snapped to them. LP rows are scaled to a largest coefficient of 1 (GLOP and
 * CLP mis-handle rows spanning 15 orders of magnitude); if the incremental solve fails, OR-Tools'
 * program tries GLOP from scratch at tight and default tolerances, then CLP.
 */
public final class GammaOptimizer {

  /** Cuts added per separation round. */
  private static final int CUTS_PER_ROUND = 48;
  /** Candidate multisets the oracle returns per round, of which CUTS_PER_ROUND diverse ones. */
  private static final int CANDIDATES = 400;
  /** Cosine above which a candidate cut counts as a copy of one already taken this round. */
  private static final double DIVERSITY = 0.99999;
  /** Relative violation of the bound below which the loop stops and γ is scaled instead. */
  private static final double NEAR_FEASIBLE = 1e-9;
  private static final int MAX_ROUNDS = 500;
  /**
   * Relative gap between the best private γ found (the incumbent) and the LP's lower bound at
   * which the loop stops with the incumbent.
   */
  private static final double GAP = 1e-4;
  /** Absolute gap (in objective units) that also stops the loop. */
  private static final double ABSOLUTE_GAP = 1e-12;
  /** Where between the incumbent (0) and the LP point (1) the in-out separation looks. */
  private static final double IN_OUT = 0.5;
  private static final double SNAP = 1e-9;
  /**
   * Weight, relative to the objective's largest coefficient, of a tie-break towards larger γ: the
   * surrogate's coefficients Bin(K, p̄)(K − u) − Bin(K, p̄)(u) vanish (below 1e-20 for K = 1001)
   * away from u ≈ (1 − p̄)K, which leaves the LP free, and oscillating between vertices, in every
   * other γ(u). It changes the objective by at most 1e-9 (K + 1)/2 of its scale.
   */
  private static final double TIE_BREAK = 1e-9;
  /** Rounds a cut must stay slack in a row before the LP may drop it. */
  private static final int SLACK_ROUNDS = 15;
  /** Fewest long-slack cuts worth rebuilding the LP for. */
  private static final int DROP_AT_LEAST = 200;
  /** Slack (relative to the bound) above which a row with zero dual counts as slack. */
  private static final double SLACK_TOLERANCE = 1e-9;

  /** Progress of the cutting-plane loop, for progress bars. */
  public record Progress(int round, int constraints, double maxPrivacyCost, double bound) {}

  /**
   * The certified optimum.
   *
   * @param gamma the certified γ
   * @param certificate its exact certificate
   * @param scale the factor the loop's γ was scaled by into the bound (1 when it passed)
   * @param rounds separation rounds (LP solves)
   * @param constraints cuts generated
   * @param objectiveValue the objective at γ
   * @param searches calls of the exact verifier, the final certification (which searches again
   *     when it scales) counted once
   * @param verifierNanos wall-clock time in those searches
   */
  public record Result(NoiseFunction gamma, PrivacyCertificate certificate, double scale,
      int rounds, int constraints, double objectiveValue, int searches, long verifierNanos) {}

  private final DarrmSetting setting;
  private final PrivacyVerifier verifier;
  /** The solver given, or null for OR-Tools, looked up when {@link #optimize} first needs it. */
  private final LpSolver solver;

  /** The optimiser with OR-Tools' GLOP (an optional dependency, checked when the LP first runs). */
  public GammaOptimizer(DarrmSetting setting) {
    this.setting = Require.nonNull("setting", setting);
    this.verifier = new PrivacyVerifier(setting);
    this.solver = null;
  }

  /** The optimiser with the given LP solver. */
  public GammaOptimizer(DarrmSetting setting, LpSolver solver) {
    this.setting = Require.nonNull("setting", setting);
    this.verifier = new PrivacyVerifier(setting);
    this.solver = Require.nonNull("solver", solver);
  }

  public PrivacyVerifier verifier() {
    return verifier;
  }

  /** Optimises without progress reports. */
  public Result optimize(Objective objective) {
    return optimize(objective, p -> { });
  }

  /** Optimises γ for the objective; {@code progress} hears after every separation round. */
  public Result optimize(Objective objective, Consumer<Progress> progress) {
    Require.nonNull("objective", objective);
    LpSolver lpSolver = solver != null ? solver : LpSolver.orTools();
    int k = setting.teachers();
    double bound = setting.privacyBound();
    LinearObjective linear = linearObjective(objective);
    List<double[]> cuts = new ArrayList<>();
    Set<String> added = new HashSet<>();
    TimedSearches searches = new TimedSearches();
    // Warm start: the worst multisets of the majority and of the subsampling baselines, each
    // scaled into the bound a first incumbent (γ ≡ 0 is always private).
    int m = (int) Math.floor(setting.allowance());
    Incumbent incumbent = new Incumbent(linear, NoiseFunction.constant(k, 0));
    for (NoiseFunction start : List.of(NoiseFunction.constant(k, 1),
        NoiseFunction.subsampling(k, m), NoiseFunction.subsampling(k, Math.min(k, 2 * m - 1)))) {
      List<PrivacyVerifier.ScoredMultiset> worst = searches.worst(start);
      addCuts(cuts, worst, added, Double.NEGATIVE_INFINITY);
      incumbent.offer(intoBound(start, worst.get(0).cost(), bound));
    }
    double threshold = bound + verifier.tolerance();
    int round = 0;
    NoiseFunction result;
    try (IncrementalLp lp = new IncrementalLp(lpSolver, linear, (k + 1) / 2, bound, added)) {
      while (true) {
        round++;
        double[] solution = lp.solve(cuts);
        double[] free = new double[(k + 1) / 2];
        double sum = 0;
        for (int u = 0; u < free.length; u++) {
          double v = Math.min(1, Math.max(0, solution[u]));
          free[u] = v < SNAP ? 0 : v > 1 - SNAP ? 1 : v;
          sum += free[u];
        }
        NoiseFunction gamma = NoiseFunction.fromFreeValues(k, free);
        // The LP's optimum (without the tie-break) bounds every private γ's objective from below.
        double lower = linear.value(free) - TIE_BREAK * linear.slope() * sum;
        List<PrivacyVerifier.ScoredMultiset> worst = searches.worst(gamma);
        double maxCost = worst.get(0).cost();
        incumbent.offer(intoBound(gamma, maxCost, bound));
        progress.accept(new Progress(round, cuts.size(), maxCost, bound));
        // A violation below NEAR_FEASIBLE (relative) ends the loop: scaling γ by bound / max f
        // then costs at most that much utility, and spares the LP's slow tail.
        if (maxCost <= threshold || maxCost <= bound * (1 + NEAR_FEASIBLE)) {
          result = linear.value(free) <= incumbent.value ? gamma : incumbent.gamma;
          break;
        }
        if (incumbent.value - lower <= GAP * Math.abs(incumbent.value) + ABSOLUTE_GAP
            || round >= MAX_ROUNDS) {
          result = incumbent.gamma;
          break;
        }
        // In-out separation: cuts violated halfway between the incumbent (private) and the LP
        // point also cut the LP point off, and lie nearer the optimum; a private midpoint is the
        // new incumbent and the LP point's own cuts are added instead.
        double[] mid = incumbent.gamma.freeValues();
        for (int u = 0; u < mid.length; u++) {
          mid[u] += IN_OUT * (free[u] - mid[u]);
        }
        NoiseFunction between = NoiseFunction.fromFreeValues(k, mid);
        List<PrivacyVerifier.ScoredMultiset> midWorst = searches.worst(between);
        int fresh = 0;
        if (midWorst.get(0).cost() <= bound) {
          incumbent.offer(between);
        } else {
          fresh = addCuts(cuts, midWorst, added, threshold);
        }
        if (fresh == 0 && addCuts(cuts, worst, added, threshold) == 0) {
          result = linear.value(free) <= incumbent.value ? gamma : incumbent.gamma;
          break;
        }
      }
    }
    PrivacyVerifier.Certified certified = searches.certifyOrScale(result);
    return new Result(certified.gamma(), certified.certificate(), certified.scale(), round,
        cuts.size(), linear.value(certified.gamma().freeValues()), searches.count,
        searches.nanos);
  }

  /** The verifier's searches, counted and timed for {@link Result}. */
  private final class TimedSearches {
    private int count;
    private long nanos;

    List<PrivacyVerifier.ScoredMultiset> worst(NoiseFunction gamma) {
      long start = System.nanoTime();
      List<PrivacyVerifier.ScoredMultiset> worst = verifier.worst(gamma, CANDIDATES);
      count++;
      nanos += System.nanoTime() - start;
      return worst;
    }

    PrivacyVerifier.Certified certifyOrScale(NoiseFunction gamma) {
      long start = System.nanoTime();
      PrivacyVerifier.Certified certified = verifier.certifyOrScale(gamma);
      count++;
      nanos += System.nanoTime() - start;
      return certified;
    }
  }

  /** γ scaled by bound / max f when it exceeds the bound (f is linear in γ, Lemma 3.4). */
  private static NoiseFunction intoBound(NoiseFunction gamma, double maxCost, double bound) {
    return maxCost <= bound ? gamma : gamma.scaled(bound / maxCost);
  }

  /** The private γ of lowest objective seen so far. */
  private static final class Incumbent {
    private final LinearObjective linear;
    private NoiseFunction gamma;
    private double value;

    Incumbent(LinearObjective linear, NoiseFunction start) {
      this.linear = linear;
      this.gamma = start;
      this.value = linear.value(start.freeValues());
    }

    /** Keeps γ (which must be private) if it beats the incumbent. */
    void offer(NoiseFunction candidate) {
      double v = linear.value(candidate.freeValues());
      if (v < value) {
        gamma = candidate;
        value = v;
      }
    }
  }

  /**
   * Adds the violated multisets' constraints, most violated first, skipping any whose direction is
   * within {@link #DIVERSITY} (cosine) of one already added this round: the oracle's top
   * multisets are mostly near-copies of each other, and diverse cuts converge in fewer rounds.
   */
  private int addCuts(List<double[]> cuts, List<PrivacyVerifier.ScoredMultiset> worst,
      Set<String> added, double threshold) {
    List<double[]> round = new ArrayList<>();
    for (PrivacyVerifier.ScoredMultiset s : worst) {
      if (s.cost() <= threshold || round.size() >= CUTS_PER_ROUND) {
        continue;
      }
      double[] w = verifier.constraintVector(s.multiset());
      double[] unit = unit(w);
      boolean similar = false;
      for (double[] other : round) {
        double dot = 0;
        for (int u = 0; u < unit.length; u++) {
          dot += unit[u] * other[u];
        }
        if (dot > DIVERSITY) {
          similar = true;
          break;
        }
      }
      if (!similar && added.add(vectorKey(w))) { // skip multisets with the same constraint
        cuts.add(w);
        round.add(unit);
      }
    }
    return round.size();
  }

  private static double[] unit(double[] w) {
    double norm = 0;
    for (double v : w) {
      norm += v * v;
    }
    double[] u = w.clone();
    if (norm > 0) {
      double inv = 1 / Math.sqrt(norm);
      for (int i = 0; i < u.length; i++) {
        u[i] *= inv;
      }
    }
    return u;
  }

  /** The constraint vector rounded to 1e-11 relative to its largest entry. */
  private static String vectorKey(double[] w) {
    double scale = 0;
    for (double v : w) {
      scale = Math.max(scale, Math.abs(v));
    }
    StringBuilder key = new StringBuilder();
    for (double v : w) {
      key.append(scale == 0 ? 0 : Math.round(v / scale * 1e11)).append(',');
    }
    return key.toString();
  }

  /**
   * The objective as minimise offset − Σ_u d_u γ(u) (surrogate) or minimise the mean of |c0_s −
   * Σ_u h_{s,u} γ(u)| over the SAA draws (expected error).
   */
  private record LinearObjective(double offset, double[] d, List<double[]> h, double[] c0) {
    /** The largest |∂ value / ∂γ(u)|: max d_u, or the bound (1/S) Σ_s |h_{s,u}|. */
    double slope() {
      double slope = 0;
      for (int u = 0; u < (h == null ? d.length : h.get(0).length); u++) {
        double g = 0;
        if (h == null) {
          g = Math.abs(d[u]);
        } else {
          for (double[] hs : h) {
            g += Math.abs(hs[u]) / h.size();
          }
        }
        slope = Math.max(slope, g);
      }
      return slope;
    }

    double value(double[] free) {
      if (h == null) {
        double v = offset;
        for (int u = 0; u < free.length; u++) {
          v -= d[u] * free[u];
        }
        return v;
      }
      double total = 0;
      for (int s = 0; s < h.size(); s++) {
        double e = c0[s];
        for (int u = 0; u < free.length; u++) {
          e -= h.get(s)[u] * free[u];
        }
        total += Math.abs(e);
      }
      return total / h.size();
    }
  }

  private LinearObjective linearObjective(Objective objective) {
    int k = setting.teachers();
    int n = (k + 1) / 2;
    if (objective instanceof Objective.Surrogate s) {
      // error = ½ Σ_u (B(K−u) − B(u)) (1 − γ(u)).
      double[] b = DarrmError.binomialPmf(k, s.priorMean());
      double[] d = new double[n];
      double offset = 0;
      for (int u = 0; u < n; u++) {
        d[u] = 0.5 * (b[k - u] - b[u]);
        offset += d[u];
      }
      return new LinearObjective(offset, d, null, null);
    }
    Objective.ExpectedError e = (Objective.ExpectedError) objective;
    SplittableRandom random = new SplittableRandom(e.seed());
    double[] p = new double[k];
    List<double[]> hs = new ArrayList<>();
    double[] c0 = new double[e.samples()];
    for (int s = 0; s < e.samples(); s++) {
      for (int i = 0; i < k; i++) {
        p[i] = e.prior().sample(random);
      }
      double[] alpha = DarrmError.poissonBinomial(p);
      // signed error e_s = c0 − Σ_u h_u γ(u), h_u = ½ (α_{K−u} − α_u), c0 = Σ_u h_u.
      double[] h = new double[n];
      for (int u = 0; u < n; u++) {
        h[u] = 0.5 * (alpha[k - u] - alpha[u]);
        c0[s] += h[u];
      }
      hs.add(h);
    }
    return new LinearObjective(0, null, hs, c0);
  }

  /**
   * The LP kept across rounds: new cuts are appended as rows and the solver re-solves from its
   * previous basis (new rows only: a few dual simplex pivots instead of a solve from scratch).
   *
   * <p>Cuts that stay slack (zero dual value and a positive slack) for {@link #SLACK_ROUNDS}
   * rounds in a row are dropped once they make up half of the rows: the LP is rebuilt from the
   * others. Without this the LP grows by up to {@link #CUTS_PER_ROUND} dense rows a round (K =
   * 1001, Δ = 0, m = 10: about 6,500 rows of 501 entries after 150 rounds), and its solves become
   * most of the run. Every LP over a subset of the cuts is still a relaxation, so its optimum is
   * still a lower bound; a dropped cut that becomes violated again is found again by the verifier.
   */
  private static final class IncrementalLp implements AutoCloseable {
    private final LpSolver solver;
    private final LinearObjective linear;
    private final int n;
    private final double bound;
    /** The keys ({@link #vectorKey}) of the cuts in the LP: a dropped cut may be added again. */
    private final Set<String> keys;
    private LinearProgram lp;
    /** The cuts in the LP, each with its row (−1: none, an all-zero cut) and its slack rounds. */
    private final List<double[]> active = new ArrayList<>();
    private final List<Integer> rows = new ArrayList<>();
    private final List<Integer> slackRounds = new ArrayList<>();
    /** How many of the optimiser's cuts have been appended so far. */
    private int seen;

    IncrementalLp(LpSolver solver, LinearObjective linear, int n, double bound,
        Set<String> keys) {
      this.solver = solver;
      this.linear = linear;
      this.n = n;
      this.bound = bound;
      this.keys = keys;
      build();
    }

    private void build() {
      lp = solver.newProgram();
      variablesAndObjective(lp, linear, n);
      rows.clear();
      for (double[] w : active) {
        rows.add(addCut(lp, w, bound));
      }
    }

    /** The optimum with every cut not dropped. */
    double[] solve(List<double[]> cuts) {
      dropLongSlackCuts();
      for (; seen < cuts.size(); seen++) {
        active.add(cuts.get(seen));
        rows.add(addCut(lp, cuts.get(seen), bound));
        slackRounds.add(0);
      }
      double[] solution = lp.solve().orElseThrow(
          () -> new IllegalStateException("the LP solver did not reach an optimum"));
      double[] out = Arrays.copyOf(solution, n);
      for (int i = 0; i < active.size(); i++) {
        int row = rows.get(i);
        boolean slack = row < 0
            || (lp.dual(row) == 0 && dot(active.get(i), out) < bound * (1 - SLACK_TOLERANCE));
        slackRounds.set(i, slack ? slackRounds.get(i) + 1 : 0);
      }
      return out;
    }

    private static double dot(double[] w, double[] gamma) {
      double a = 0;
      for (int u = 0; u < gamma.length; u++) {
        a += w[u] * gamma[u];
      }
      return a;
    }

    /** Rebuilds the LP without the long-slack cuts when they are at least half of it. */
    private void dropLongSlackCuts() {
      int old = 0;
      for (int r : slackRounds) {
        if (r >= SLACK_ROUNDS) {
          old++;
        }
      }
      if (old < DROP_AT_LEAST || 2 * old < active.size()) {
        return;
      }
      List<double[]> kept = new ArrayList<>();
      List<Integer> keptRounds = new ArrayList<>();
      for (int i = 0; i < active.size(); i++) {
        if (slackRounds.get(i) < SLACK_ROUNDS) {
          kept.add(active.get(i));
          keptRounds.add(slackRounds.get(i));
        } else {
          keys.remove(vectorKey(active.get(i)));
        }
      }
      active.clear();
      active.addAll(kept);
      slackRounds.clear();
      slackRounds.addAll(keptRounds);
      lp.close();
      build();
    }

    @Override
    public void close() {
      lp.close();
    }
  }

  /**
   * One privacy cut w·γ ≤ bound, scaled to a largest coefficient of 1 with entries below 1e-12 of
   * it dropped: the LP solvers mis-handle rows spanning 15 orders of magnitude. This only perturbs
   * the LP; the exact verifier still decides (and cuts again, or scales the final γ).
   *
   * @return the row's index, or −1 when w is zero (no row)
   */
  private static int addCut(LinearProgram lp, double[] w, double bound) {
    double scale = 0;
    for (double v : w) {
      scale = Math.max(scale, Math.abs(v));
    }
    if (scale == 0) {
      return -1;
    }
    int[] vars = new int[w.length];
    double[] coefficients = new double[w.length];
    int count = 0;
    for (int u = 0; u < w.length; u++) {
      double v = w[u] / scale;
      if (Math.abs(v) >= 1e-12) {
        vars[count] = u;
        coefficients[count++] = v;
      }
    }
    return lp.addRow(Double.NEGATIVE_INFINITY, bound / scale, Arrays.copyOf(vars, count),
        Arrays.copyOf(coefficients, count));
  }

  /**
   * The variables γ(0..(K − 1)/2) ∈ [0, 1] (indices 0..n − 1) and the objective, with the SAA
   * auxiliaries t_s ≥ |e_s| after them.
   */
  private static void variablesAndObjective(LinearProgram lp, LinearObjective linear, int n) {
    if (linear.h() == null) {
      double scale = 0;
      for (double v : linear.d()) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int u = 0; u < n; u++) {
        lp.addVariable(0, 1, scale > 0 ? -linear.d()[u] / scale - TIE_BREAK : 0);
      }
      return;
    }
    double weight = 1.0 / linear.h().size();
    double slope = linear.slope();
    for (int u = 0; u < n; u++) {
      lp.addVariable(0, 1, -TIE_BREAK * slope);
    }
    for (int s = 0; s < linear.h().size(); s++) {
      double[] h = linear.h().get(s);
      double c0 = linear.c0()[s];
      int t = lp.addVariable(0, Double.POSITIVE_INFINITY, weight);
      // t ≥ e_s ⇔ t + Σ h_u γ(u) ≥ c0;  t ≥ −e_s ⇔ t − Σ h_u γ(u) ≥ −c0.
      int[] vars = new int[n + 1];
      double[] above = new double[n + 1];
      double[] below = new double[n + 1];
      for (int u = 0; u < n; u++) {
        vars[u] = u;
        above[u] = h[u];
        below[u] = -h[u];
      }
      vars[n] = t;
      above[n] = 1;
      below[n] = 1;
      lp.addRow(c0, Double.POSITIVE_INFINITY, vars, above);
      lp.addRow(-c0, Double.POSITIVE_INFINITY, vars, below);
    }
  }
}
