package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.budget.Release;
import dev.tradeoff.accounting.budget.RunGuarantee;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.random.ElementRandomness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.POutput;

/**
 * A Beam pipeline with a privacy budget. Private transforms are applied through {@link #apply},
 * which records what each releases; {@link #run()} composes all releases with the accounting
 * module ({@link RunGuarantee}, the tightest accountant at the run's δ) and charges the result to
 * the pipeline's {@link BudgetStore} before the pipeline starts: the run's event (the releases'
 * events composed) with that (ε, δ), so a ledger with tighter filters admits the run by its event
 * ({@link BudgetStore#charge(String, Charge)}). If the charge does not fit, the store refuses it
 * with a {@link BudgetExceededException} naming what was requested and what remains, and nothing
 * runs.
 *
 * <p>Outputs written with {@link #writeCsv} into a directory named by {@link #writingTo} are
 * committed the way every budgeted run is ({@link BudgetedRun}: charge, run, a check that each
 * output has exactly its planned rows, marker, rename, {@code manifest.json}); a run that fails
 * commits nothing.
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
  private final Map<String, Long> planned = new LinkedHashMap<>();
  private RunOutput output;

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
   * Commits the outputs written with {@link #writeCsv} into {@code out} when the run succeeds;
   * call once, before {@link #writeCsv}.
   *
   * @param overwrite whether a non-empty {@code out} may be written into
   * @throws IllegalArgumentException if {@code out} is a file, or not empty without
   *     {@code overwrite}
   */
  public PrivatePipeline writingTo(Path out, boolean overwrite) {
    Require.nonNull("out", out);
    Require.that(output == null, "out", "must be named once", out);
    RunOutput.check(out, overwrite);
    output = RunOutput.start(out);
    return this;
  }

  /**
   * Writes the rows of a private output (e.g. a {@code PrivateHistogram}'s counts, formatted) as
   * {@code NAME-*.csv} with a header. The number of rows must be known before the run (the public
   * keys of a histogram, one row of a sum): the commit refuses any other count.
   *
   * @param name the output's name: letters, digits, '_' and '.', not starting with '.'
   * @param header the CSV header line
   * @param rows the number of rows the output will have
   */
  public void writeCsv(String name, PCollection<String> lines, String header, long rows) {
    Require.that(output != null, "out", "must be named by writingTo before writeCsv", name);
    Require.that(name != null && name.matches("[A-Za-z0-9_][A-Za-z0-9_.]*"), "name",
        "must be letters, digits, '_' and '.', not starting with '.'", name);
    Require.that(!planned.containsKey(name), "name", "must name one output once", name);
    Require.nonNull("header", header);
    Require.that(rows >= 0, "rows", "must be at least 0", rows);
    Require.that(lines.getPipeline() == pipeline, "lines", "must belong to this pipeline", name);
    lines.apply("Write " + name, new CsvOutput(output.prefix(name), header));
    planned.put(name, rows);
  }

  /**
   * Charges the run's guarantee to the budget, then runs the pipeline to completion, and commits
   * the outputs if a directory was named ({@link BudgetedRun}). The charge is durable before the
   * pipeline starts and is not refunded if the run fails.
   *
   * @throws BudgetExceededException if the guarantee does not fit in what remains (nothing is
   *     charged and nothing runs)
   * @throws IllegalStateException if the pipeline fails, or an output has other than its planned
   *     rows (nothing committed)
   */
  public Outcome run() {
    String label = "Beam run of " + releases.stream().map(Release::name).toList();
    RunGuarantee guarantee;
    try {
      guarantee = guarantee();
    } catch (RunGuarantee.UnreachableDeltaException e) {
      throw new BudgetExceededException(label, e.getMessage(), budget.remaining());
    }
    BudgetedRun.Spend spend = new BudgetedRun.Spend(label + " (" + guarantee.method().cliName()
        + " accounting)", new Charge(RunGuarantee.composed(releases), guarantee.total()));
    if (output == null) {
      BudgetedRun.charge(budget, spend);
      BudgetedRun.await(pipeline);
      return new Outcome(guarantee, Optional.empty());
    }
    PipelineManifest manifest = BudgetedRun.run(new BudgetedRun.Job<>() {
      @Override
      public BudgetedRun.Spend spend() {
        return spend;
      }

      @Override
      public Pipeline build(RunOutput staged) {
        return pipeline;
      }

      @Override
      public Map<String, Long> planned() {
        return planned;
      }

      @Override
      public PipelineManifest manifest(Optional<BudgetedRun.Receipt> receipt,
          Map<String, List<String>> files) {
        return new PipelineManifest(PipelineManifest.VERSION, releases.stream()
            .map(r -> new PipelineManifest.ReleaseEntry(r.name(), String.valueOf(r.event())))
            .toList(), new PipelineManifest.Guarantee(guarantee.total().epsilon(),
                guarantee.total().delta(), guarantee.method().cliName()),
            receipt.map(r -> new PipelineManifest.Ledger(r.entry().id(), r.entry().label(),
                String.valueOf(r.remaining()))).orElse(null), planned, files);
      }
    }, budget, output);
    return new Outcome(guarantee, Optional.of(manifest));
  }

  /** A finished run: its guarantee, and its manifest when outputs were committed. */
  public record Outcome(RunGuarantee guarantee, Optional<PipelineManifest> manifest) {}
}
