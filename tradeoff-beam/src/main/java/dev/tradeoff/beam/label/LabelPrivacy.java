package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.methods.Accountants;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.teachers.DpSgdTeachers;
import java.util.ArrayList;
import java.util.List;

/**
 * Every privacy parameter of a labelling run, fixed from the total budget (E, D), the number Q of
 * queries, K and the aggregator before any record is read (PATE-style knowledge transfer, DaRRM
 * paper Section 6.2).
 *
 * <p>DaRRM ({@link Aggregator#DARRM_OPT}, {@link Aggregator#DARRM_SUB}): each label is (ε_l,
 * δ_l)-DP with δ_l = D/(2Q) rounded down and ε_l the largest value (doubling, then bisection to a relative width of 10^-4, keeping the certified end) whose
 * Q-fold composition the tightest accountant for it ({@link #methods}) bounds by (E, D); the
 * allowance m (default {@link #DEFAULT_ALLOWANCE}, at most K) then gives each teacher (ε_l/m, Δ)
 * with 1 − (1 − Δ)^m ≤ δ_l (DaRRM's default δ, Section 6.1), and DP-SGD's noise multiplier is the
 * smallest the PLD accountant certifies for (ε_l/m, Δ) at the fixed sampling rate and steps. The
 * certified DaRRM target (m ε_t, δ) ≤ (ε_l, δ_l) is what is composed.
 *
 * <p>GNMax ({@link Aggregator#GNMAX}): the teachers are non-private; one training record changes
 * one teacher's vote, i.e. two vote counts by one (L2 sensitivity √2), so each label is a Gaussian
 * mechanism with noise multiplier σ/√2, and σ is the smallest for which the tightest accountant
 * bounds Q such labels by (E, D).
 *
 * <p>Every rounding goes the safe way (ε and δ down per label, σ up), and the run's guarantee is
 * recomputed from the final parameters by {@link RunGuarantee}: it never exceeds (E, D).
 *
 * @param aggregator the private majority
 * @param queries Q
 * @param teachers K
 * @param budget (E, D), the most the run may spend
 * @param run the run's guarantee: the Q-fold composition, by the tightest accountant, at D
 * @param perLabel the per-label guarantee composed
 * @param setting DaRRM's setting (null for GNMax)
 * @param dpSgd the teachers' DP-SGD (null for GNMax)
 * @param gnmax GNMax's noise (null for DaRRM)
 * @param derivation the steps above with their numbers, for the manifest
 */
public record LabelPrivacy(Aggregator aggregator, long queries, int teachers, ApproxDp budget,
    RunGuarantee run, ApproxDp perLabel, DarrmSetting setting, DpSgd dpSgd, GnMax gnmax,
    List<String> derivation) {

  /** DaRRM's privacy allowance m when none is given (the paper's Section 6.2 uses m = 3). */
  public static final double DEFAULT_ALLOWANCE = 3;

  /**
   * How the private teachers are trained: Poisson sampling rate q and epochs (so T = ⌈epochs/q⌉
   * steps), clipping norm C. Fixed independently of the data, so the noise can be calibrated before
   * any record is read.
   */
  public record Training(double samplingRate, double epochs, double clip) {
    /** q = 0.1, 5 epochs (T = 50 steps), C = 1. */
    public static final Training DEFAULT = new Training(0.1, 5, 1);

    public Training {
      Require.that(samplingRate > 0 && samplingRate <= 1, "sampling rate", "must be in (0, 1]",
          samplingRate);
      Require.positive("epochs", epochs);
      Require.positive("clip", clip);
    }
  }

  public LabelPrivacy {
    derivation = List.copyOf(derivation);
  }

  /** Whether the teachers are trained with DP-SGD (DaRRM) rather than non-privately (GNMax). */
  public boolean privateTeachers() {
    return dpSgd != null;
  }

  /**
   * Derives every parameter.
   *
   * @param budget (E, D) with E &gt; 0 and D in (0, 1)
   * @param queries Q ≥ 1
   * @param teachers odd K ≥ 1 for DaRRM, K ≥ 1 for GNMax
   * @param allowance m in [1, K] for DaRRM, or NaN for the default
   */
  public static LabelPrivacy derive(ApproxDp budget, long queries, int teachers,
      Aggregator aggregator, double allowance, Training training) {
    Require.nonNull("budget", budget);
    Require.positive("epsilon", budget.epsilon());
    Require.openUnit("delta", budget.delta());
    Require.positive("queries", queries);
    Require.that(queries <= Integer.MAX_VALUE, "queries", "must be < 2^31", queries);
    Require.positive("teachers", teachers);
    Require.nonNull("aggregator", aggregator);
    Require.nonNull("training", training);
    int q = (int) queries;
    List<String> steps = new ArrayList<>();
    steps.add("budget (E, D) = (" + budget.epsilon() + ", " + budget.delta() + ") for Q = " + q
        + " labels from K = " + teachers + " teachers, aggregator " + aggregator.cliName());
    if (aggregator.isDarrm()) {
      Require.that(teachers % 2 == 1, "teachers", "must be odd for DaRRM (its majority has no "
          + "ties)", teachers);
      double m = Double.isNaN(allowance) ? Math.min(DEFAULT_ALLOWANCE, teachers) : allowance;
      Require.inClosedRange("m", m, 1, teachers);
      double labelDelta = Math.nextDown(budget.delta() / (2.0 * q));
      double labelEpsilon = largestPerLabelEpsilon(budget, q, labelDelta);
      steps.add("per label: delta_l = D/(2Q) = " + labelDelta + "; epsilon_l = " + labelEpsilon
          + ", the largest whose Q-fold composition the tightest accountant bounds by (E, D)");
      double teacherEpsilon = labelEpsilon / m;
      while (teacherEpsilon * m > labelEpsilon) {
        teacherEpsilon = Math.nextDown(teacherEpsilon);
      }
      double teacherDelta = Math.nextDown(-Math.expm1(Math.log1p(-labelDelta) / m));
      while (DarrmSetting.defaultDelta(teacherDelta, m) > labelDelta) {
        teacherDelta = Math.nextDown(teacherDelta);
      }
      DarrmSetting setting = DarrmSetting.withDefaultDelta(teachers, teacherEpsilon,
          teacherDelta, m);
      steps.add("m = " + m + ": each teacher (epsilon_l/m, Delta) = (" + teacherEpsilon + ", "
          + teacherDelta + ") with 1-(1-Delta)^m = " + setting.delta() + " <= delta_l");
      Accountant pld = new PldAccountant();
      int dpSgdSteps = DpSgd.stepsForEpochs(training.epochs(), training.samplingRate());
      double sigma;
      try {
        sigma = DpSgd.calibrateNoiseMultiplier(training.samplingRate(), dpSgdSteps,
            teacherEpsilon, teacherDelta, pld);
      } catch (IllegalArgumentException e) {
        throw new BudgetExceededException("label " + q + " queries", "leaves each teacher "
            + "epsilon " + teacherEpsilon + ", which DP-SGD cannot reach (" + e.getMessage()
            + ")", budget);
      }
      DpSgd dpSgd = new DpSgd(sigma, training.clip(), training.samplingRate(), dpSgdSteps,
          DpSgdTeachers.LEARNING_RATE, 0);
      ApproxDp achieved = dpSgd.guarantee(teacherDelta, pld);
      steps.add("DP-SGD: q = " + training.samplingRate() + ", T = " + dpSgdSteps + " steps, C = "
          + training.clip() + ", noise multiplier sigma = " + sigma + " (PLD accountant: epsilon "
          + achieved.epsilon() + " at Delta)");
      ApproxDp perLabel = setting.target();
      RunGuarantee run = composed(new GuaranteeEvent(perLabel), q, budget.delta());
      steps.add("DaRRM target per label (m epsilon_t, delta) = (" + perLabel.epsilon() + ", "
          + perLabel.delta() + "); Q labels: (" + run.total().epsilon() + ", "
          + run.total().delta() + ") by " + run.method().cliName());
      return new LabelPrivacy(aggregator, q, teachers, budget, run, perLabel, setting, dpSgd,
          null, steps);
    }
    Require.that(Double.isNaN(allowance), "m", "applies to DaRRM only, not to gnmax", allowance);
    double multiplier = smallestNoiseMultiplier(budget, q);
    double sigma = Math.nextUp(multiplier * Math.sqrt(2));
    while (sigma / Math.sqrt(2) < multiplier) {
      sigma = Math.nextUp(sigma);
    }
    GnMax gnmax = new GnMax(sigma, rdpOrder(sigma / Math.sqrt(2), q, budget.delta()));
    DpEvent perLabel = new GaussianEvent(sigma / Math.sqrt(2));
    RunGuarantee run = composed(perLabel, q, budget.delta());
    ApproxDp single = RunGuarantee.of(List.of(new Release("label", perLabel)),
        Math.nextDown(budget.delta() / (2.0 * q)), methods(Aggregator.GNMAX, 1)).total();
    steps.add("GNMax over non-private teachers: one record moves two vote counts by one "
        + "(L2 sensitivity sqrt 2); sigma = " + sigma + ", the smallest for which the tightest "
        + "accountant bounds Q Gaussian labels of noise multiplier sigma/sqrt 2 by (E, D)");
    steps.add("Q labels: (" + run.total().epsilon() + ", " + run.total().delta() + ") by "
        + run.method().cliName() + "; one label alone: (" + single.epsilon() + ", "
        + single.delta() + ")");
    return new LabelPrivacy(aggregator, q, teachers, budget, run, single, null, null, gnmax,
        steps);
  }

  /** Up to this many DaRRM labels the exact optimal composition is tried (it is then fast). */
  public static final int OPTIMAL_LIMIT = 10_000;

  /**
   * The accounting methods for Q labels of one kind. DaRRM's labels are (ε_l, δ_l) guarantees:
   * Kairouz et al.'s optimal composition (Theorem 3.3) is exact for Q identical ones, so no other
   * accountant can be tighter (PLD only approximates it, at ten times the cost); above
   * {@link #OPTIMAL_LIMIT} their closed form and basic composition are used. GNMax's labels are
   * Gaussian mechanisms: Gaussian DP composes them exactly, RDP and zCDP are tried next to it.
   */
  public static List<AccountingMethod> methods(Aggregator aggregator, long q) {
    if (!aggregator.isDarrm()) {
      return List.of(AccountingMethod.GDP, AccountingMethod.RDP, AccountingMethod.ZCDP);
    }
    return q <= OPTIMAL_LIMIT
        ? List.of(AccountingMethod.OPTIMAL, AccountingMethod.KAIROUZ, AccountingMethod.BASIC)
        : List.of(AccountingMethod.KAIROUZ, AccountingMethod.BASIC);
  }

  private static RunGuarantee composed(DpEvent perLabel, int q, double delta) {
    DpEvent all = q == 1 ? perLabel : new SelfComposedEvent(perLabel, q);
    Aggregator kind = perLabel instanceof GaussianEvent ? Aggregator.GNMAX : Aggregator.DARRM_SUB;
    return RunGuarantee.of(List.of(new Release("labels", all)), delta, methods(kind, q));
  }

  /** The largest ε_l (bisection; the result is one the accountants certified) with Q-fold ≤ E. */
  private static double largestPerLabelEpsilon(ApproxDp budget, int q, double labelDelta) {
    double lo = budget.epsilon() / q; // basic composition always certifies E/Q
    double hi = budget.epsilon();
    if (fits(budget, q, new ApproxDp(hi, labelDelta))) {
      return hi;
    }
    while (lo * 2 < hi && fits(budget, q, new ApproxDp(lo * 2, labelDelta))) {
      lo *= 2;
    }
    hi = Math.min(hi, lo * 2);
    for (int i = 0; i < 40 && hi - lo > 1e-4 * lo; i++) {
      double mid = 0.5 * (lo + hi);
      if (fits(budget, q, new ApproxDp(mid, labelDelta))) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static boolean fits(ApproxDp budget, int q, ApproxDp perLabel) {
    return composed(new GuaranteeEvent(perLabel), q, budget.delta()).total().epsilon()
        <= budget.epsilon();
  }

  /** The smallest Gaussian noise multiplier over the accountants that support it. */
  private static double smallestNoiseMultiplier(ApproxDp budget, int q) {
    double best = Double.POSITIVE_INFINITY;
    for (AccountingMethod method : methods(Aggregator.GNMAX, q)) {
      Accountant accountant = Accountants.forMethod(method);
      DpEvent probe = new SelfComposedEvent(new GaussianEvent(1), q);
      if (accountant.whyUnsupported(probe, Neighbouring.ADD_OR_REMOVE_ONE).isPresent()) {
        continue;
      }
      try {
        best = Math.min(best, new GaussianCalibrator(accountant).sigma(q, budget.epsilon(),
            budget.delta(), Neighbouring.ADD_OR_REMOVE_ONE));
      } catch (IllegalArgumentException e) {
        // outside this accountant's numerical range; the others still certify
      }
    }
    if (Double.isInfinite(best)) {
      throw new IllegalArgumentException("no accountant certifies " + q + " Gaussian labels "
          + "within (" + budget.epsilon() + ", " + budget.delta() + ")");
    }
    return best;
  }

  /** The Rényi order at which Q Gaussian labels convert best to (ε, δ): 1 + s √(2 log(1/δ)/Q). */
  private static double rdpOrder(double multiplier, int q, double delta) {
    return Math.max(1.0001, 1 + multiplier * Math.sqrt(2 * Math.log(1 / delta) / q));
  }
}
