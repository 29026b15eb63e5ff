package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;

/**
 * The one path of a run that spends privacy budget: plan → charge → run → marker → rename →
 * manifest. The caller has planned (every parameter fixed, every input checked, the spend known);
 * {@link #run} then, into an output staged as a hidden work directory ({@link RunOutput})
 *
 * <ol>
 *   <li>charges the ledger, durably, before anything is read or written ({@link #charge}); a
 *       refusal is a {@link BudgetExceededException} and nothing happens;
 *   <li>builds the pipeline, which writes into the work directory;
 *   <li>runs it to completion ({@link #await}); a failure abandons the work directory and keeps
 *       the charge (the data was read);
 *   <li>commits: each output must hold exactly its planned record count, then the marker, the
 *       renames and the manifest ({@link RunOutput#commit}).
 * </ol>
 *
 * <p>A crash at any point leaves nothing and no charge, a charge and nothing, or a charge and
 * results marked incomplete: never results without a charge, and never more records than were
 * charged for. {@code tradeoff label} ({@code dev.tradeoff.beam.label.LabelJob}) and
 * {@link PrivatePipeline} (the histogram and shuffle-sum transforms) run through it.
 */
public final class BudgetedRun {

  private BudgetedRun() {}

  /**
   * What a run charges: the ledger entry's label and the charge (its event, so that a ledger can
   * admit it by a filter tighter than basic composition, and its (ε, δ)).
   */
  public record Spend(String label, Charge charge) {
    public Spend {
      Require.nonNull("label", label);
      Require.nonNull("charge", charge);
    }
  }

  /** The ledger's record of a charge: the entry and what the ledger has left after it. */
  public record Receipt(LedgerEntry entry, PrivacyGuarantee remaining) {}

  /** A planned run. */
  public interface Job<M extends RunManifest> {

    /** What the run spends. */
    Spend spend();

    /**
     * The pipeline, writing each output as {@link CountedShards} under
     * {@code output.prefix(name)} (built here, after the charge, or earlier by the caller).
     */
    Pipeline build(RunOutput output);

    /** The planned number of records of each output, by name (what was charged for). */
    Map<String, Long> planned();

    /** The manifest of the committed run. */
    M manifest(Optional<Receipt> receipt, Map<String, List<String>> files);
  }

  /**
   * Charges, runs and commits a planned job into a staged output ({@link RunOutput#start}).
   *
   * @param ledger where the spend is charged, or null for none (a seeded run, which is not private)
   * @return the manifest as written
   * @throws BudgetExceededException if the ledger refuses the charge (nothing charged or written)
   * @throws IllegalStateException if the pipeline fails or an output's record count differs from
   *     the plan (the charge stays; nothing is committed)
   */
  public static <M extends RunManifest> M run(Job<M> job, BudgetStore ledger, RunOutput output) {
    Require.nonNull("job", job);
    Require.nonNull("output", output);
    Optional<Receipt> receipt;
    try {
      receipt = charge(ledger, job.spend());
      await(job.build(output));
    } catch (RuntimeException e) {
      output.abandon();
      throw e;
    }
    return output.commit(job.planned(), files -> job.manifest(receipt, files));
  }

  /**
   * Charges the spend to the ledger, durably; nothing when the ledger is null.
   *
   * @throws BudgetExceededException if it does not fit (nothing charged)
   */
  public static Optional<Receipt> charge(BudgetStore ledger, Spend spend) {
    Require.nonNull("spend", spend);
    if (ledger == null) {
      return Optional.empty();
    }
    ApproxDp cost = spend.charge().approxDp();
    // a pure-ε ledger records a δ = 0 spend as what it is
    LedgerEntry entry = ledger.kind() == GuaranteeKind.PURE_DP && cost.delta() == 0
        ? ledger.charge(spend.label(), new PureDp(cost.epsilon()))
        : ledger.charge(spend.label(), spend.charge());
    return Optional.of(new Receipt(entry, ledger.remaining()));
  }

  /**
   * Runs the pipeline to completion.
   *
   * @throws IllegalStateException if it fails or ends in another state than DONE (with the root
   *     cause's message; the budget stays charged: the data was read)
   */
  public static void await(Pipeline pipeline) {
    try {
      PipelineResult.State state = pipeline.run().waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("the pipeline ended in state " + state);
      }
    } catch (RuntimeException e) {
      throw new IllegalStateException("the pipeline failed (the budget stays charged: the data "
          + "was read): " + rootMessage(e), e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
