package dev.tradeoff.selection.filter;

/**
 * A privacy filter refused a request: admitting it could overspend the budget. Carries what was
 * requested (the request's largest possible charge) and what remains (as in Tumult Analytics'
 * budget errors).
 */
public final class BudgetExceededException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Charge requested;
  private final transient Charge remaining;

  public BudgetExceededException(String what, Charge requested, Charge remaining) {
    super(
        "privacy budget exceeded for "
            + what
            + ": requested up to epsilon="
            + requested.epsilon()
            + (requested.delta() > 0 || remaining.delta() > 0 ? ", delta=" + requested.delta() : "")
            + " but only epsilon="
            + remaining.epsilon()
            + (requested.delta() > 0 || remaining.delta() > 0 ? ", delta=" + remaining.delta() : "")
            + " remains");
    this.requested = requested;
    this.remaining = remaining;
  }

  /** The largest charge the refused request could have incurred. */
  public Charge requested() {
    return requested;
  }

  /** The budget left when the request was refused. */
  public Charge remaining() {
    return remaining;
  }
}
