package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.methods.Accountants;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.softmax.SoftmaxDpSgd;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * Every privacy parameter of a labelling run, fixed from the total budget (E, D), the number Q of
 * queries, K and the aggregator before any record is read, and every analysis that bounds the
 * run, with the least of them as the run's guarantee.
 *
 * <h2>What is released, and the two analyses</h2>
 *
 * <p>The K teachers are trained once, each on its own partition of the sensitive rows (a keyed
 * hash: one record, one partition), and every label is a function of the K trained models, the
 * public queries and fresh aggregator noise. Under add/remove of one record exactly one
 * partition, so one model, changes.
 *
 * <ol>
 *   <li><b>Teachers</b> (private teachers only): the K models together are as private as one
 *       teacher (parallel composition, Dwork and Roth 2014, and McSherry 2009), and everything
 *       computed from them afterwards, any number of labels included, is post-processing. So the
 *       run is (ε, D)-DP with ε one teacher's, at the run's D, whatever Q is. A teacher's
 *       mechanism is the noisy size of its partition (Gaussian, sensitivity 1) composed with T
 *       Poisson-sampled Gaussian DP-SGD steps ({@link #teacherEvent}).
 *   <li><b>Per-label composition</b>: each label is a private mechanism of its own and the Q
 *       labels compose. For GNMax over non-private teachers (deterministic models) each label is
 *       a Gaussian mechanism of sensitivity √2 on the vote counts with independent noise, so this
 *       is the (only) valid analysis. For DaRRM each label is (m ε_t, δ)-DP [DaRRM24, Lemma 3.1
 *       and Section 4]; composing the Q labels is what DaRRM's model needs (mechanisms run afresh
 *       for every output); here the labels share the same models, so the composition is valid only
 *       because it is implied by analysis 1 ((m ε_t, δ) ≥ (ε_t, Δ) in both coordinates, and
 *       composing more mechanisms only raises the profile) — it never binds in this job.
 * </ol>
 *
 * <p>The run's guarantee is the least ε over the analyses that apply, all at δ = D, each computed
 * by the tightest accountant for it ({@link RunGuarantee}).
 *
 * <h2>The plans</h2>
 *
 * <ul>
 *   <li>{@link Aggregator#DP_MAJORITY}: each teacher is trained to the whole (E, D) (σ the
 *       smallest certified for the teacher event), and the label is the teachers' plurality
 *       ({@link Plurality}). The run costs (E, D) for any Q.
 *   <li>DaRRM ({@link Aggregator#DARRM_OPT}, {@link Aggregator#DARRM_SUB}): [DaRRM24, Section 6.2]'s
 *       derivation, kept for the paper's model: each label (ε_l, δ_l) with δ_l = D/(2Q) rounded
 *       down and ε_l the largest whose Q-fold composition fits (E, D); each teacher (ε_l/m, Δ) with
 *       1 − (1 − Δ)^m ≤ δ_l; σ the smallest for which the teacher event meets (ε_l/m, Δ). Charged
 *       the least valid bound, which is analysis 1 at D.
 *   <li>{@link Aggregator#GNMAX}: non-private teachers; σ the smallest for which the tightest
 *       accountant bounds Q Gaussian labels of noise multiplier σ/√2 by (E, D).
 * </ul>
 *
 * <p>Replace-one neighbours: a replacement is one removal and one addition, so whatever the
 * analysis, an (ε, δ)-DP run under add/remove is (2ε, (1 + e^ε)δ)-DP under replace-one (group
 * privacy of size 2, Dwork and Roth 2014, Theorem 2.2 for pure DP and its (ε, δ) extension): the
 * two records may fall into two partitions (two teachers change) or, when the training file
 * keeps a stable id column that the partition is keyed on, into the same one.
 *
 * @param aggregator the aggregator
 * @param queries Q
 * @param teachers K
 * @param budget (E, D), the most the run may spend
 * @param bounds every analysis that applies, in the order above
 * @param run the least of them: the run's guarantee, what is charged
 * @param trainer how each teacher is trained (with its noise)
 * @param setting DaRRM's setting (null for the others)
 * @param gnmax GNMax's noise (null for the others)
 * @param derivation the steps above with their numbers, for the manifest and {@code --plan}
 */
public record LabelPrivacy(Aggregator aggregator, long queries, int teachers, ApproxDp budget,
    List<Bound> bounds, Bound run, PartitionTrainer trainer, DarrmSetting setting, GnMax gnmax,
    List<String> derivation) {

  /** DaRRM's privacy allowance m when none is given (the paper's Section 6.2 uses m = 3). */
  public static final double DEFAULT_ALLOWANCE = 3;

  /** Up to this many DaRRM labels the exact optimal composition is tried (it is then fast). */
  public static final int OPTIMAL_LIMIT = 10_000;

  /**
   * One analysis of the run's privacy and its result at the run's δ.
   *
   * @param analysis what the analysis is ({@code teachers} or {@code per-label composition})
   * @param argument why it holds, in one sentence
   * @param guarantee the run's (ε, δ) by that analysis, with the accountant that gave it
   */
  public record Bound(String analysis, String argument, RunGuarantee guarantee) {
    public Bound {
      Require.nonNull("analysis", analysis);
      Require.nonNull("argument", argument);
      Require.nonNull("guarantee", guarantee);
    }

    /** The run's (ε, δ) by this analysis. */
    public ApproxDp total() {
      return guarantee.total();
    }
  }

  /**
   * How the private teachers are trained, fixed independently of the data so the noise can be
   * calibrated before any record is read: Poisson sampling rate q and epochs (T = ⌈epochs/q⌉
   * steps), clipping norm C and learning rate η of softmax DP-SGD ({@link SoftmaxDpSgd}).
   */
  public record Training(double samplingRate, double epochs, double clip, double learningRate) {
    /** q = 0.01, 5 epochs (T = 500 steps), C = 1, η = 0.5. */
    public static final Training DEFAULT = new Training(0.01, 5, 1, 0.5);

    public Training {
      Require.that(samplingRate > 0 && samplingRate <= 1, "sampling-rate", "must be in (0, 1]",
          samplingRate);
      Require.that(epochs > 0 && epochs <= 1000, "epochs", "must be in (0, 1000]", epochs);
      Require.that(clip > 0 && clip <= 1e6, "clip", "must be in (0, 1e6]", clip);
      Require.that(learningRate > 0 && learningRate <= 1e3, "learning-rate",
          "must be in (0, 1000]", learningRate);
      Require.that(epochs / samplingRate <= 1e6, "epochs / sampling-rate",
          "must be at most 10^6 DP-SGD steps", epochs / samplingRate);
    }

    /** T. */
    public int steps() {
      return DpSgd.stepsForEpochs(epochs, samplingRate);
    }

    /** Softmax DP-SGD with noise multiplier σ. */
    public SoftmaxDpSgd dpSgd(double sigma) {
      return new SoftmaxDpSgd(sigma, clip, samplingRate, steps(), learningRate, 0);
    }
  }

  public LabelPrivacy {
    bounds = List.copyOf(bounds);
    derivation = List.copyOf(derivation);
  }

  /** The run's guarantee: the least bound. */
  public ApproxDp total() {
    return run.total();
  }

  /**
   * A private teacher's mechanism: its partition's size released with Gaussian noise σ_c
   * (sensitivity 1), composed with T steps of DP-SGD (Poisson-sampled Gaussians).
   */
  public static DpEvent teacherEvent(PartitionTrainer.Softmax trainer) {
    SoftmaxDpSgd dpSgd = Require.nonNull("trainer.dpSgd", trainer.dpSgd());
    return ComposedEvent.of(new GaussianEvent(trainer.countSigma()), dpSgd.event());
  }

  /**
   * What a run asks of its privacy, each value checked here once (the names are the command
   * line's flags): the budget (E, D), the aggregator, K teachers, DaRRM's allowance m (empty for
   * the default, min(3, K)) and the teachers' DP-SGD.
   */
  public record Target(ApproxDp budget, Aggregator aggregator, int teachers,
      OptionalDouble allowance, Training training) {
    /** Most teachers a run may have. */
    public static final int MAX_TEACHERS = 10_001;

    public Target {
      Require.nonNull("budget", budget);
      Require.that(budget.epsilon() >= 1e-6 && budget.epsilon() <= 100, "epsilon",
          "must be in [1e-6, 100]", budget.epsilon());
      Require.that(budget.delta() > 0 && budget.delta() < 1, "delta", "must be in (0, 1)",
          budget.delta());
      Require.nonNull("aggregator", aggregator);
      Require.inClosedRange("teachers", teachers, 1, MAX_TEACHERS);
      Require.nonNull("m", allowance);
      Require.nonNull("training", training);
      if (aggregator.isDarrm()) {
        Require.that(teachers % 2 == 1, "teachers", "must be odd for DaRRM (its majority has no "
            + "ties)", teachers);
        if (allowance.isPresent()) {
          Require.inClosedRange("m", allowance.getAsDouble(), 1, teachers);
        }
      } else {
        Require.that(allowance.isEmpty(), "m", "applies to DaRRM only, not to "
            + aggregator.cliName(), allowance.orElse(Double.NaN));
      }
    }

    /** The default target of an aggregator: its K (1 for dp-majority, else 11), defaults. */
    public static Target of(ApproxDp budget, Aggregator aggregator) {
      return new Target(budget, aggregator, aggregator == Aggregator.DP_MAJORITY ? 1 : 11,
          OptionalDouble.empty(), Training.DEFAULT);
    }
  }

  /**
   * Derives every parameter.
   *
   * @param queries Q ≥ 1
   * @throws BudgetExceededException if no noise meets the budget
   */
  public static LabelPrivacy derive(Target target, long queries) {
    Require.nonNull("target", target);
    Require.that(queries >= 1 && queries <= Integer.MAX_VALUE, "queries", "must be in [1, 2^31)",
        queries);
    int q = (int) queries;
    ApproxDp budget = target.budget();
    int teachers = target.teachers();
    Aggregator aggregator = target.aggregator();
    List<String> steps = new ArrayList<>();
    steps.add("budget (E, D) = (" + budget.epsilon() + ", " + budget.delta() + ") for Q = " + q
        + " labels from K = " + teachers + " teachers, aggregator " + aggregator.cliName());
    return switch (aggregator) {
      case DP_MAJORITY -> dpMajority(budget, q, teachers, target.training(), steps);
      case DARRM_OPT, DARRM_SUB -> darrm(budget, q, teachers, aggregator,
          target.allowance().orElse(Math.min(DEFAULT_ALLOWANCE, teachers)), target.training(),
          steps);
      case GNMAX -> gnmax(budget, q, teachers, steps);
    };
  }

  private static LabelPrivacy dpMajority(ApproxDp budget, int q, int teachers, Training training,
      List<String> steps) {
    Calibrated calibrated = calibratedTeachers(training, budget.epsilon(), budget.delta(), budget,
        q);
    PartitionTrainer.Softmax trainer = calibrated.trainer();
    // the search's certified bracket at the final σ is the teacher's guarantee: recomputing it on
    // the default grid would cost a PLD accounting more for an ε about 1e-5 relative lower
    Bound teachersBound = teachersBound(trainer, new RunGuarantee(List.of(new Release("teacher",
        teacherEvent(trainer))), new ApproxDp(calibrated.epsilon().upper(), budget.delta()),
        AccountingMethod.PLD, calibrated.epsilon().lower()));
    steps.add("each teacher trained by DP-SGD to the whole (E, D): " + trainer.describe()
        + "; the teacher is (" + teachersBound.total().epsilon() + ", " + budget.delta()
        + ")-DP by " + teachersBound.guarantee().method().cliName());
    steps.add("labels: the teachers' plurality, no noise: post-processing of the K models, "
        + "which are as private as one teacher (parallel composition); any Q costs the same");
    return finish(budget, q, teachers, Aggregator.DP_MAJORITY, List.of(teachersBound), trainer,
        null, null, steps);
  }

  private static LabelPrivacy darrm(ApproxDp budget, int q, int teachers, Aggregator aggregator,
      double m, Training training, List<String> steps) {
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
    PartitionTrainer.Softmax trainer = calibratedTeachers(training, teacherEpsilon,
        teacherDelta, budget, q).trainer();
    ApproxDp achieved = RunGuarantee.of(List.of(new Release("teacher", teacherEvent(trainer))),
        teacherDelta).total();
    DarrmSetting setting = DarrmSetting.withDefaultDelta(teachers, achieved.epsilon(),
        teacherDelta, m);
    steps.add("m = " + formatM(m) + ": each teacher (epsilon_l/m, Delta) = (" + teacherEpsilon
        + ", " + teacherDelta + "), certified (" + achieved.epsilon() + ", " + teacherDelta
        + ") by " + trainer.describe());
    ApproxDp perLabel = setting.target();
    RunGuarantee composed = composed(new GuaranteeEvent(perLabel), q, budget.delta());
    Bound perLabelBound = new Bound("per-label composition", "each DaRRM label is (m epsilon_t, "
        + "delta) = (" + perLabel.epsilon() + ", " + perLabel.delta() + ")-DP [DaRRM24]; the Q "
        + "labels composed (valid here only because the teachers bound implies it: the labels "
        + "share the same models)", composed);
    Bound teachersBound = teachersBound(trainer, RunGuarantee.of(List.of(new Release("teacher",
        teacherEvent(trainer))), budget.delta()));
    steps.add("DaRRM per label (m epsilon_t, delta) = (" + perLabel.epsilon() + ", "
        + perLabel.delta() + "); Q labels: (" + composed.total().epsilon() + ", "
        + composed.total().delta() + ") by " + composed.method().cliName()
        + "; the teachers alone: (" + teachersBound.total().epsilon() + ", " + budget.delta()
        + ")");
    return finish(budget, q, teachers, aggregator, List.of(teachersBound, perLabelBound),
        trainer, setting, null, steps);
  }

  private static LabelPrivacy gnmax(ApproxDp budget, int q, int teachers, List<String> steps) {
    double multiplier = smallestNoiseMultiplier(budget, q);
    double sigma = Math.nextUp(multiplier * Math.sqrt(2));
    while (sigma / Math.sqrt(2) < multiplier) {
      sigma = Math.nextUp(sigma);
    }
    GnMax gnmax = new GnMax(sigma, rdpOrder(sigma / Math.sqrt(2), q, budget.delta()));
    RunGuarantee composed = composed(new GaussianEvent(sigma / Math.sqrt(2)), q, budget.delta());
    steps.add("GNMax over non-private teachers: one record changes one teacher's vote, so two "
        + "vote counts by one (L2 sensitivity sqrt 2); sigma = " + sigma + ", the smallest for "
        + "which the tightest accountant bounds Q Gaussian labels of noise multiplier sigma/sqrt 2 "
        + "by (E, D): (" + composed.total().epsilon() + ", " + composed.total().delta() + ") by "
        + composed.method().cliName());
    Bound perLabel = new Bound("per-label composition", "each label is a Gaussian mechanism of "
        + "noise multiplier sigma/sqrt 2 on the non-private teachers' vote counts, with fresh "
        + "noise; the Q labels composed", composed);
    return finish(budget, q, teachers, Aggregator.GNMAX, List.of(perLabel),
        PartitionTrainer.Softmax.nonPrivate(), null, gnmax, steps);
  }

  private static LabelPrivacy finish(ApproxDp budget, int q, int teachers, Aggregator aggregator,
      List<Bound> bounds, PartitionTrainer trainer, DarrmSetting setting, GnMax gnmax,
      List<String> steps) {
    Bound least = bounds.stream().min(Comparator.comparingDouble(b -> b.total().epsilon()))
        .orElseThrow();
    steps.add("charged: the least bound, " + least.analysis() + ": (" + least.total().epsilon()
        + ", " + least.total().delta() + ")");
    return new LabelPrivacy(aggregator, q, teachers, budget, bounds, least, trainer, setting,
        gnmax, steps);
  }

  private static Bound teachersBound(PartitionTrainer.Softmax trainer, RunGuarantee teacher) {
    return new Bound("teachers", "each record is in one partition, so changes one teacher; the K "
        + "models are as private as one (parallel composition) and every label is "
        + "post-processing of them, for any number of queries", teacher);
  }

  /** Calibrated teachers and the PLD accountant's certified ε bracket at their σ. */
  private record Calibrated(PartitionTrainer.Softmax trainer, EpsilonBounds epsilon) {}

  /**
   * Teachers whose event meets (ε, δ): the smallest σ the PLD accountant certifies, to a relative
   * width of 10^-3 ({@link GaussianCalibrator#calibrate}: secant steps from the RDP accountant's
   * σ). A target the
   * RDP accountant cannot reach at any σ (ε of 10^-3 at δ of 10^-11, what DaRRM's per-label
   * derivation leaves each teacher at 10^5 queries) is refused first: such teachers would vote at
   * random, and a PLD search for them would run for minutes over ever larger σ.
   *
   * <p>The search uses a PLD grid ⌊4ε⌋ times coarser than the default, between 1 and 10 times
   * ({@link #searchPld}): its pessimistic bound is an upper bound on every grid, so each σ it
   * accepts is certified, and each call costs a fraction of a default one. The grid's error is
   * absolute in ε, hence the factor falls with ε. dp-majority's guarantee is the search's
   * certified bracket at the final σ; DaRRM's teachers are accounted again by every accountant;
   * {@link LabelJob#plan} refuses a plan whose guarantee exceeds the budget, so a coarse search
   * can never overspend.
   */
  private static Calibrated calibratedTeachers(Training training, double epsilon, double delta,
      ApproxDp budget, int q) {
    DoubleFunction<DpEvent> event = s -> teacherEvent(PartitionTrainer.Softmax.dp(
        training.dpSgd(s), epsilon, delta));
    GaussianCalibrator.Calibration found;
    try {
      // reachable by RDP (fast): else refused, before a PLD search over ever larger σ
      new GaussianCalibrator(Accountants.forMethod(AccountingMethod.RDP)).calibrate(event,
          epsilon, delta, Neighbouring.ADD_OR_REMOVE_ONE, SIGMA_WIDTH);
      found = new GaussianCalibrator(searchPld(epsilon)).calibrate(event, epsilon, delta,
          Neighbouring.ADD_OR_REMOVE_ONE, SIGMA_WIDTH);
    } catch (IllegalArgumentException e) {
      throw new BudgetExceededException("label " + q + " queries", "leaves each teacher "
          + "(epsilon " + epsilon + ", delta " + delta + "), which DP-SGD with noisy partition "
          + "sizes cannot reach (" + e.getMessage() + ")", budget);
    }
    return new Calibrated(PartitionTrainer.Softmax.dp(training.dpSgd(found.sigma()), epsilon,
        delta), found.atSigma());
  }

  /** The relative width to which the teachers' σ is searched. */
  private static final double SIGMA_WIDTH = 1e-3;

  /** The PLD accountant of the σ search for ε: the default grid, ⌊4ε⌋ (1 to 10) times coarser. */
  private static Accountant searchPld(double epsilon) {
    int factor = (int) Math.max(1, Math.min(10, Math.floor(4 * epsilon)));
    return factor == 1 ? Accountants.forMethod(AccountingMethod.PLD)
        : new PldAccountant(factor * PldAccountant.DEFAULT_INTERVAL,
            PldAccountant.DEFAULT_TAIL_MASS);
  }

  private static String formatM(double m) {
    return m == Math.rint(m) ? String.valueOf((long) m) : String.valueOf(m);
  }

  /**
   * The accounting methods for Q labels of one kind. DaRRM's labels are (ε_l, δ_l) guarantees:
   * Kairouz et al.'s optimal composition (Theorem 3.3) is exact for Q identical ones, so no other
   * accountant can be tighter; above {@link #OPTIMAL_LIMIT} their closed form and basic composition
   * are used. GNMax's labels are Gaussian mechanisms: Gaussian DP composes them exactly, RDP and
   * zCDP are tried next to it.
   */
  public static List<AccountingMethod> methods(boolean gaussian, long q) {
    if (gaussian) {
      return List.of(AccountingMethod.GDP, AccountingMethod.RDP, AccountingMethod.ZCDP);
    }
    return q <= OPTIMAL_LIMIT
        ? List.of(AccountingMethod.OPTIMAL, AccountingMethod.KAIROUZ, AccountingMethod.BASIC)
        : List.of(AccountingMethod.KAIROUZ, AccountingMethod.BASIC);
  }

  private static RunGuarantee composed(DpEvent perLabel, int q, double delta) {
    DpEvent all = q == 1 ? perLabel : new SelfComposedEvent(perLabel, q);
    return RunGuarantee.of(List.of(new Release("labels", all)), delta,
        methods(perLabel instanceof GaussianEvent, q));
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
    for (AccountingMethod method : methods(true, q)) {
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
