package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import java.util.Optional;

/**
 * A request that would overspend a privacy budget: nothing was charged and nothing was released.
 * Carries what was requested (the worst-case cost; absent when no finite guarantee exists at the
 * budget's δ) and what remained, rounded down, when the request was refused.
 */
public final class BudgetExceededException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient PrivacyGuarantee requested;
  private final transient PrivacyGuarantee remaining;

  /**
   * A refused request.
   *
   * @param label what the charge was for
   * @param requested the worst-case cost asked for
   * @param remaining the budget left, rounded down
   */
  public BudgetExceededException(String label, PrivacyGuarantee requested,
      PrivacyGuarantee remaining) {
    super("privacy budget exceeded: \"" + label + "\" requested " + requested + " but only "
        + remaining + " remains; nothing was charged");
    this.requested = requested;
    this.remaining = remaining;
  }

  /**
   * A refused request whose cost has no finite value at the budget's δ (e.g. its own δ's add up to
   * more than the budget's).
   *
   * @param label what the charge was for
   * @param reason why no finite cost exists
   * @param remaining the budget left, rounded down
   */
  public BudgetExceededException(String label, String reason, PrivacyGuarantee remaining) {
    super("privacy budget exceeded: \"" + label + "\" " + reason + ", but only " + remaining
        + " remains; nothing was charged");
    this.requested = null;
    this.remaining = remaining;
  }

  /** The refused request (its worst-case cost); empty when it has no finite cost. */
  public Optional<PrivacyGuarantee> requested() {
    return Optional.ofNullable(requested);
  }

  /** The budget left when the request was refused, rounded down. */
  public PrivacyGuarantee remaining() {
    return remaining;
  }
}
