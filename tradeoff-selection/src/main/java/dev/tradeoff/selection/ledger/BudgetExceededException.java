package dev.tradeoff.selection.ledger;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;

/**
 * A request that would overspend the budget: nothing was charged. Carries the amount requested and
 * what remained (rounded down) when the request was refused.
 */
public final class BudgetExceededException extends IllegalStateException {

  private final transient PrivacyGuarantee requested;
  private final transient PrivacyGuarantee remaining;

  public BudgetExceededException(String label, PrivacyGuarantee requested, PrivacyGuarantee remaining) {
    super(
        "privacy budget exceeded: \""
            + label
            + "\" requested "
            + requested
            + " but only "
            + remaining
            + " remains; nothing was charged");
    this.requested = requested;
    this.remaining = remaining;
  }

  /** The refused request (the worst-case cost). */
  public PrivacyGuarantee requested() {
    return requested;
  }

  /** The budget left when the request was refused, rounded down. */
  public PrivacyGuarantee remaining() {
    return remaining;
  }
}
