package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.beam.random.ElementRandomness;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.POutput;

/**
 * A Beam pipeline with a privacy budget. Private transforms are applied through {@link #apply},
 * which records what each releases; {@link #run()} composes all releases with the accounting
 * module ({@link RunGuarantee}, the tightest accountant at the run's δ) and charges the result to
 * the pipeline's {@link BudgetStore} before the pipeline starts; an (ε, δ) store gets the run's
 * event (the releases' {@link ComposedEvent}) with that (ε, δ), so a ledger with tighter filters
 * admits the run by its event ({@link BudgetStore#charge(String, Charge)}). If the charge does not fit, the
 * store refuses it with a {@link BudgetExceededException} naming what was requested and what
 * remains, and nothing runs.
 *
 * <p>The same randomness (secure by default, seeded only when asked) is handed to every private
 * transform built by the caller via {@link #randomness()}.
 */
public final class PrivatePipeline {

  private final Pipeline pipeline;
  private final BudgetStore budget;
  private final double delta;
  private final ElementRandomness randomness;
  private final List<Release> releases = new ArrayList<>();

  private PrivatePipeline(Pipeline pipeline, BudgetStore budget, double delta,
      ElementRandomness randomness) {
    this.pipeline = pipeline;
    this.budget = budget;
    this.delta = delta;
    this.randomness = randomness;
  }

  /**
   * A new pipeline with the given options (runner), a fresh in-memory budget and randomness.
   *
   * @param budget the (ε, δ) the whole run may spend; δ must be in (0, 1) or 0 for pure budgets
   */
  public static PrivatePipeline create(PipelineOptions options, ApproxDp budget,
      ElementRandomness randomness) {
    Require.nonNull("budget", budget);
    return create(options, new InMemoryBudgetStore(budget), budget.delta(), randomness);
  }

  /**
   * A new pipeline that charges its run to {@code budget} (in memory or a persistent ledger).
   *
   * @param budget an (ε, δ) or pure-ε budget store
   * @param delta the δ at which the run's ε is computed and charged (0 for a pure budget)
   */
  public static PrivatePipeline create(PipelineOptions options, BudgetStore budget, double delta,
      ElementRandomness randomness) {
    Require.nonNull("options", options);
    Require.nonNull("budget", budget);
    Require.that(budget.kind() != GuaranteeKind.RENYI_DP, "budget",
        "must be an (epsilon, delta) or pure epsilon budget", budget.kind());
    Require.delta("delta", delta);
    Require.that(budget.kind() == GuaranteeKind.APPROX_DP || delta == 0, "delta",
        "must be 0 for a pure epsilon budget", delta);
    Require.nonNull("randomness", randomness);
    return new PrivatePipeline(Pipeline.create(options), budget, delta, randomness);
  }

  /** The underlying Beam pipeline, for non-private steps (reading, formatting, writing). */
  public Pipeline pipeline() {
    return pipeline;
  }

  /** The budget the run is charged to. */
  public BudgetStore budget() {
    return budget;
  }

  /** The randomness private transforms of this pipeline should use. */
  public ElementRandomness randomness() {
    return randomness;
  }

  /** Applies a private transform to a collection of this pipeline and records its release. */
  public <T, O extends POutput> O apply(String name, PCollection<T> input,
      PrivateTransform<PCollection<T>, O> transform) {
    Require.nonNull("name", name);
    Require.nonNull("input", input);
    Require.nonNull("transform", transform);
    Require.that(input.getPipeline() == pipeline, "input", "must belong to this pipeline", name);
    O output = input.apply(name, transform);
    releases.add(new Release(name, transform.event()));
    return output;
  }

  /** The releases recorded so far. */
  public List<Release> releases() {
    return List.copyOf(releases);
  }

  /** The guarantee the run would have, at the run's δ; computed without running anything. */
  public RunGuarantee guarantee() {
    return RunGuarantee.of(releases, delta);
  }

  /**
   * Charges the run's guarantee to the budget, then runs the pipeline to completion. The charge
   * is durable before the pipeline starts and is not refunded if the run fails.
   *
   * @throws BudgetExceededException if the guarantee does not fit in what remains (nothing is
   *     charged and nothing runs)
   */
  public Outcome run() {
    String label = "Beam run of " + releases.stream().map(Release::name).toList();
    RunGuarantee guarantee;
    try {
      guarantee = guarantee();
    } catch (RunGuarantee.UnreachableDeltaException e) {
      throw new BudgetExceededException(label, e.getMessage(), budget.remaining());
    }
    ApproxDp cost = guarantee.total();
    String charged = label + " (" + guarantee.method().cliName() + " accounting)";
    if (budget.kind() == GuaranteeKind.PURE_DP) {
      budget.charge(charged, new PureDp(cost.epsilon()));
    } else if (budget.kind() == GuaranteeKind.APPROX_DP && !releases.isEmpty()) {
      // the run's event goes with its (epsilon, delta), so a ledger with tight filters (GDP,
      // RDP) admits it by the event rather than by the flattened (epsilon, delta)
      budget.charge(charged, new Charge(releases.size() == 1 ? releases.get(0).event()
          : new ComposedEvent(releases.stream().map(Release::event).toList()), cost));
    } else {
      budget.charge(charged, cost);
    }
    PipelineResult result = pipeline.run();
    PipelineResult.State state = result.waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("pipeline ended in state " + state);
    }
    return new Outcome(guarantee, state);
  }

  /** A finished run: its guarantee and Beam's final state. */
  public record Outcome(RunGuarantee guarantee, PipelineResult.State state) {}
}
