package dev.tradeoff.accounting.budget;

/** The state of one ledger entry. */
public enum EntryStatus {
  /**
   * Admitted at its worst-case cost, not yet settled. It counts against the budget at that
   * worst-case cost, also forever if its owner crashed before committing.
   */
  RESERVED,
  /** Settled at its realised cost (at most the reserved cost). */
  COMMITTED,
  /**
   * Withdrawn before its mechanism ran ({@link BudgetStore#cancel}); counts nothing. Stores that
   * keep an append-only record (the SQLite ledger's hash chain) keep the row with this status;
   * {@link BudgetStore#entries()} does not list it.
   */
  CANCELLED
}
