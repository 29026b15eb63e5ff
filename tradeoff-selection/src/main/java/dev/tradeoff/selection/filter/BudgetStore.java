package dev.tradeoff.selection.filter;

/**
 * Where a privacy filter keeps the budget spent so far. The filter only ever asks for an atomic
 * reservation of a request's largest possible charge and then settles it with the realised charge,
 * so a store that makes {@link #reserve} atomic (a lock in memory, a transaction in a database)
 * never lets concurrent requests overspend. {@link InMemoryBudgetStore} is the in-process store; a
 * persistent ledger implements the same interface.
 */
public interface BudgetStore {

  /** Total committed charges plus open reservations. */
  Charge spent();

  /**
   * Atomically reserves {@code maximum} if spent + maximum fits within {@code budget}.
   *
   * @param description what the charge is for (recorded by stores that keep a history)
   * @throws BudgetExceededException if it does not fit; nothing is reserved
   */
  Reservation reserve(String description, Charge maximum, Charge budget);

  /** An open reservation: exactly one of {@link #commit} or {@link #release} settles it. */
  interface Reservation {

    /** The reserved maximum. */
    Charge maximum();

    /**
     * Replaces the reservation by the realised charge, durably, before the result is released.
     *
     * @throws IllegalArgumentException if {@code realised} exceeds the reserved maximum
     */
    void commit(Charge realised);

    /** Cancels the reservation: nothing was released, nothing is charged. */
    void release();
  }
}
