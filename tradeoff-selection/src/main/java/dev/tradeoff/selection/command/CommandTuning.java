package dev.tradeoff.selection.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.selection.expost.PureDpCandidate;
import dev.tradeoff.selection.expost.RandomDroppingTuner;
import dev.tradeoff.selection.expost.RdpCandidate;
import dev.tradeoff.selection.expost.RenyiRandomDroppingTuner;
import dev.tradeoff.selection.expost.TuningRun;
import dev.tradeoff.selection.filter.PureDpFilter;
import dev.tradeoff.selection.filter.RenyiFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Private hyperparameter tuning of a user's own training command: [ExPost25, Algorithm 3] (random
 * dropping) over a {@link TuningPlan}'s shell-command candidates. Without {@code alpha} the plan is
 * tuned with Geom_{e^{−ε′}} dropping and the ex-post pure-DP guarantee of Theorem 11 (2ε_i + ε′
 * for the chosen candidate, 0 for none); with {@code alpha}, with Exp_{ε′} dropping and the ex-post
 * RDP guarantee of Theorem 13.
 *
 * <p>With a budget store the run goes through a privacy filter: admitted only if its worst case
 * fits, and charged the realised ε̃ before it returns. A pure-DP store uses {@link PureDpFilter}; a
 * Rényi store, or an (ε, δ) store whose policy has an ex-post share, uses {@link RenyiFilter}
 * (Algorithm 4, Theorem 16; an ex-post pure-DP guarantee enters it by Lemma 7, as ε̃-DP is ex-post
 * (α, ε̃)-RDP). A refused run throws the store's {@code BudgetExceededException} and runs nothing.
 *
 * <p>Each candidate runs as {@code sh -c COMMAND} and must print, as its last line, {@code
 * {"score": s, "epsilon": e}} (or an {@code "rdp"} curve) with the privacy it spent, no more than
 * it declared; a failing candidate (crash, timeout, garbage, a negative, NaN or too large ε) aborts
 * the run with an {@link IllegalArgumentException} naming it, and nothing is charged.
 */
public final class CommandTuning {

  private CommandTuning() {}

  /**
   * What one tuning run released and what it cost.
   *
   * @param run the chosen candidate (or none) and how many candidates ran
   * @param guaranteeKind which ex-post guarantee, e.g. "ex-post pure DP (Theorem 11)"
   * @param epsilon the realised ex-post ε̃ of this outcome
   * @param exAnteEpsilon the worst case over all outcomes
   */
  public record Result(
      TuningRun<JsonNode> run, String guaranteeKind, double epsilon, double exAnteEpsilon) {}

  /** Tunes {@code plan} with {@code random} driving the dropping; no budget is charged. */
  public static Result run(TuningPlan plan, RandomGenerator random) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(random, "random");
    return plan.alpha().isPresent() ? renyi(plan, null, null, random) : pure(plan, null, null, random);
  }

  /**
   * Tunes {@code plan} through a privacy filter on {@code store}: refused (nothing runs) unless its
   * worst case fits; charged the realised ε̃, under {@code label}, before this returns.
   */
  public static Result run(TuningPlan plan, BudgetStore store, String label, RandomGenerator random) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(random, "random");
    return plan.alpha().isPresent()
        ? renyi(plan, store, label, random)
        : pure(plan, store, label, random);
  }

  private static Result pure(TuningPlan p, BudgetStore store, String label, RandomGenerator random) {
    List<PureDpCandidate<JsonNode>> cs = new ArrayList<>();
    for (TuningPlan.Entry e : p.candidates()) {
      cs.add(new PureDpCandidate<>(
          new CommandCandidate(e, p.timeoutSeconds(), null), e.epsilon().orElseThrow()));
    }
    RandomDroppingTuner<JsonNode> tuner = RandomDroppingTuner.of(cs, p.epsilonPrime());
    var guarantee = tuner.guarantee();
    TuningRun<JsonNode> run;
    if (store == null) {
      run = tuner.run(random);
    } else if (store.kind() == GuaranteeKind.APPROX_DP) {
      run = new RenyiFilter(store).answer(label, guarantee, () -> tuner.run(random),
          TuningRun::outcome);
    } else {
      run = new PureDpFilter(store).answer(label, guarantee, () -> tuner.run(random),
          TuningRun::outcome);
    }
    return new Result(run, "ex-post pure DP (Theorem 11)", guarantee.epsilonOf(run.outcome()),
        guarantee.exAnteEpsilon());
  }

  private static Result renyi(TuningPlan p, BudgetStore store, String label,
      RandomGenerator random) {
    double alpha = p.alpha().orElseThrow();
    List<RdpCandidate<JsonNode>> cs = new ArrayList<>();
    for (TuningPlan.Entry e : p.candidates()) {
      RenyiDp declared =
          e.rdp().orElseGet(() -> RenyiDp.ofOrder(alpha, e.epsilon().orElseThrow()));
      cs.add(new RdpCandidate<>(new CommandCandidate(e, p.timeoutSeconds(), alpha), declared));
    }
    RenyiRandomDroppingTuner<JsonNode> tuner =
        RenyiRandomDroppingTuner.of(cs, p.epsilonPrime(), alpha);
    var guarantee = tuner.guarantee();
    TuningRun<JsonNode> run = store == null
        ? tuner.run(random)
        : new RenyiFilter(store).answer(label, guarantee, () -> tuner.run(random),
            TuningRun::outcome);
    return new Result(run, "ex-post RDP at alpha " + alpha + " (Theorem 13)",
        guarantee.epsilonOf(run.outcome()), guarantee.exAnteEpsilon());
  }
}
