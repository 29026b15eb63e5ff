package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
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
 * module ({@link RunGuarantee}) and refuses to start the pipeline, with a
 * {@link BudgetExceededException} naming the requested and the allowed (ε, δ), if the run would
 * exceed the budget.
 *
 * <p>The same randomness (secure by default, seeded only when asked) is handed to every private
 * transform built by the caller via {@link #randomness()}.
 */
public final class PrivatePipeline {

  private final Pipeline pipeline;
  private final ApproxDp budget;
  private final ElementRandomness randomness;
  private final List<Release> releases = new ArrayList<>();

  private PrivatePipeline(Pipeline pipeline, ApproxDp budget, ElementRandomness randomness) {
    this.pipeline = pipeline;
    this.budget = budget;
    this.randomness = randomness;
  }

  /**
   * A new pipeline with the given options (runner), budget and randomness.
   *
   * @param budget the (ε, δ) the whole run may spend; δ must be in (0, 1) or 0 for pure budgets
   */
  public static PrivatePipeline create(PipelineOptions options, ApproxDp budget,
      ElementRandomness randomness) {
    Require.nonNull("options", options);
    Require.nonNull("budget", budget);
    Require.nonNull("randomness", randomness);
    return new PrivatePipeline(Pipeline.create(options), budget, randomness);
  }

  /** The underlying Beam pipeline, for non-private steps (reading, formatting, writing). */
  public Pipeline pipeline() {
    return pipeline;
  }

  /** The pipeline's budget. */
  public ApproxDp budget() {
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

  /** The guarantee the run would have, at the budget's δ; computed without running anything. */
  public RunGuarantee guarantee() {
    return RunGuarantee.of(releases, budget.delta());
  }

  /**
   * Checks the guarantee against the budget, then runs the pipeline to completion.
   *
   * @throws BudgetExceededException if the guarantee exceeds the budget (nothing runs)
   */
  public Outcome run() {
    RunGuarantee guarantee;
    try {
      guarantee = guarantee();
    } catch (RunGuarantee.UnreachableDeltaException e) {
      throw new BudgetExceededException(e.getMessage(), budget);
    }
    if (!guarantee.within(budget)) {
      throw new BudgetExceededException(guarantee, budget);
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
