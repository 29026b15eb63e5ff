package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.guarantee.ApproxDp;

/**
 * The guarantee a pipeline would have exceeds its budget; thrown before the pipeline runs.
 */
public final class BudgetExceededException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient RunGuarantee requested;
  private final transient ApproxDp budget;

  public BudgetExceededException(RunGuarantee requested, ApproxDp budget) {
    super("privacy budget exceeded: the pipeline's releases compose to epsilon = "
        + requested.total().epsilon() + " at delta = " + requested.total().delta() + " ("
        + requested.method().cliName() + " accounting over " + requested.releases().size()
        + " release(s)), but the budget is epsilon = " + budget.epsilon() + ", delta = "
        + budget.delta() + "; nothing was run");
    this.requested = requested;
    this.budget = budget;
  }

  /** The releases reach the budget's δ with no finite ε at all. */
  public BudgetExceededException(String reason, ApproxDp budget) {
    super("privacy budget exceeded: " + reason + ", but the budget is epsilon = "
        + budget.epsilon() + ", delta = " + budget.delta() + "; nothing was run");
    this.requested = null;
    this.budget = budget;
  }

  /** The guarantee the pipeline would have had; empty when no finite ε reaches the budget's δ. */
  public java.util.Optional<RunGuarantee> requested() {
    return java.util.Optional.ofNullable(requested);
  }

  /** The budget. */
  public ApproxDp budget() {
    return budget;
  }
}
