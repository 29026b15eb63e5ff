package dev.tradeoff.ensemble.optimize;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;
import dev.tradeoff.accounting.Require;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The DaRRM optimiser of [DaRRM24, Section 5 (Eqs. 2–3) and Appendix C]: a linear program over the (K + 1)/2 free values of a symmetric γ, solved with OR-Tools
 * GLOP.
 *
 * <p>The privacy constraints of Lemma 5.1, one per corner multiset (O(K^7) of them when Δ &gt;
 * 0), are generated lazily (cutting planes). The LP starts from the worst multisets of γ ≡ 1,
 * γ_Sub(⌊m⌋) and γ_Sub(2⌊m⌋ − 1); after each solve a separation oracle returns up to 400 multisets
 * whose privacy cost exceeds the bound most, of which up to 48 with pairwise different directions
 * become new constraints. The oracle is the exact {@link PrivacyVerifier} search itself (which
 * its re-pairing lemma makes cheap: O(K^4) multiply-adds when Δ &gt; 0, O(K^2) when Δ = 0), and
 * its last pass is the final certificate. The loop ends when the exact verifier finds no violation
 * beyond its tolerance, or none beyond 1e-9 relative, in which case γ is scaled by bound / max f. Values within 1e-9 of 0 or 1 are snapped to them and every
 * returned γ carries the exact verifier's certificate. LP rows are scaled to a largest coefficient
 * of 1 (GLOP and CLP mis-handle rows spanning 15 orders of magnitude); GLOP is tried at tight and
 * default tolerances, then CLP.
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
  private static final double SNAP = 1e-9;

  /** Progress of the cutting-plane loop, for progress bars. */
  public record Progress(int round, int constraints, double maxPrivacyCost, double bound) {}

  /** The certified optimum. */
  public record Result(NoiseFunction gamma, PrivacyCertificate certificate, double scale,
      int rounds, int constraints, double objectiveValue) {}

  private final DarrmSetting setting;
  private final PrivacyVerifier verifier;

  public GammaOptimizer(DarrmSetting setting) {
    this.setting = Require.nonNull("setting", setting);
    this.verifier = new PrivacyVerifier(setting);
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
    loadNativeLibraries();
    int k = setting.teachers();
    double bound = setting.privacyBound();
    LinearObjective linear = linearObjective(objective);
    List<double[]> cuts = new ArrayList<>();
    Set<String> added = new HashSet<>();
    // Warm start: the worst multisets of the majority and of the subsampling baselines.
    int m = (int) Math.floor(setting.allowance());
    for (NoiseFunction start : List.of(NoiseFunction.constant(k, 1),
        NoiseFunction.subsampling(k, m), NoiseFunction.subsampling(k, Math.min(k, 2 * m - 1)))) {
      addCuts(cuts, verifier.worst(start, CANDIDATES), added,
          Double.NEGATIVE_INFINITY);
    }
    int round = 0;
    PrivacyVerifier.ExactSearch exact;
    NoiseFunction gamma;
    double[] solution;
    while (true) {
      round++;
      solution = solveLp(linear, cuts, bound);
      double[] free = new double[(k + 1) / 2];
      for (int u = 0; u < free.length; u++) {
        double v = Math.min(1, Math.max(0, solution[u]));
        free[u] = v < SNAP ? 0 : v > 1 - SNAP ? 1 : v;
      }
      gamma = NoiseFunction.fromFreeValues(k, free);
      double threshold = bound + verifier.tolerance();
      // The exact oracle is the separation oracle; its last pass is the final certificate.
      exact = verifier.search(gamma, CANDIDATES);
      List<PrivacyVerifier.ScoredMultiset> worst = exact.worst();
      double maxCost = worst.get(0).cost();
      progress.accept(new Progress(round, cuts.size(), maxCost, bound));
      // A violation below NEAR_FEASIBLE (relative) ends the loop: scaling γ by bound / max f
      // then costs at most that much utility, and spares the LP's slow tail.
      if (maxCost <= threshold || round >= MAX_ROUNDS
          || maxCost <= bound * (1 + NEAR_FEASIBLE)
          || addCuts(cuts, worst, added, threshold) == 0) {
        break;
      }
    }
    PrivacyVerifier.Certified certified = exact.certificate().isPrivate()
        ? new PrivacyVerifier.Certified(gamma, exact.certificate(), 1)
        : verifier.certifyOrScale(gamma);
    return new Result(certified.gamma(), certified.certificate(), certified.scale(), round,
        cuts.size(), linear.value(certified.gamma().freeValues()));
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

  /** Solves the current LP from scratch: GLOP at tight tolerances, GLOP's defaults, then CLP. */
  private double[] solveLp(LinearObjective linear, List<double[]> cuts, double bound) {
    String[] attempts = {"GLOP", "GLOP", "CLP"};
    MPSolver.ResultStatus last = null;
    for (int a = 0; a < attempts.length; a++) {
      MPSolver solver = MPSolver.createSolver(attempts[a]);
      if (solver == null) {
        continue;
      }
      try {
        MPVariable[] x = build(solver, linear, cuts, bound);
        MPSolverParameters params = new MPSolverParameters();
        if (a == 0) {
          params.setDoubleParam(MPSolverParameters.DoubleParam.PRIMAL_TOLERANCE, 1e-10);
          params.setDoubleParam(MPSolverParameters.DoubleParam.DUAL_TOLERANCE, 1e-10);
        }
        last = solver.solve(params);
        if (last == MPSolver.ResultStatus.OPTIMAL) {
          double[] out = new double[x.length];
          for (int u = 0; u < x.length; u++) {
            out[u] = x[u].solutionValue();
          }
          return out;
        }
      } finally {
        solver.delete();
      }
    }
    throw new IllegalStateException("the LP solvers did not reach an optimum: " + last);
  }

  private static MPVariable[] build(MPSolver solver, LinearObjective linear, List<double[]> cuts,
      double bound) {
    int n = cuts.get(0).length;
    MPVariable[] x = new MPVariable[n];
    for (int u = 0; u < n; u++) {
      x[u] = solver.makeNumVar(0, 1, "gamma" + u);
    }
    for (double[] w : cuts) {
      // Rows scaled to a largest coefficient of 1, entries below 1e-12 of it dropped: the LP
      // solvers mis-handle rows spanning 15 orders of magnitude. This only perturbs the LP; the
      // exact verifier still decides (and cuts again, or scales the final γ).
      double scale = 0;
      for (double v : w) {
        scale = Math.max(scale, Math.abs(v));
      }
      if (scale == 0) {
        continue;
      }
      MPConstraint c = solver.makeConstraint(Double.NEGATIVE_INFINITY, bound / scale);
      for (int u = 0; u < n; u++) {
        double v = w[u] / scale;
        if (Math.abs(v) >= 1e-12) {
          c.setCoefficient(x[u], v);
        }
      }
    }
    MPObjective obj = solver.objective();
    if (linear.h() == null) {
      double scale = 0;
      for (double v : linear.d()) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int u = 0; u < n && scale > 0; u++) {
        obj.setCoefficient(x[u], -linear.d()[u] / scale);
      }
    } else {
      double weight = 1.0 / linear.h().size();
      for (int s = 0; s < linear.h().size(); s++) {
        double[] h = linear.h().get(s);
        double c0 = linear.c0()[s];
        MPVariable t = solver.makeNumVar(0, Double.POSITIVE_INFINITY, "t" + s);
        // t ≥ e_s ⇔ t + Σ h_u γ(u) ≥ c0;  t ≥ −e_s ⇔ t − Σ h_u γ(u) ≥ −c0.
        MPConstraint above = solver.makeConstraint(c0, Double.POSITIVE_INFINITY);
        MPConstraint below = solver.makeConstraint(-c0, Double.POSITIVE_INFINITY);
        for (int u = 0; u < n; u++) {
          above.setCoefficient(x[u], h[u]);
          below.setCoefficient(x[u], -h[u]);
        }
        above.setCoefficient(t, 1);
        below.setCoefficient(t, 1);
        obj.setCoefficient(t, weight);
      }
    }
    obj.setMinimization();
    return x;
  }

  private static void loadNativeLibraries() {
    Loader.loadNativeLibraries();
  }
}
