package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A privacy budget with a durable record of its charges: the store behind a privacy filter
 * ([ExPost25, Algorithm 4]: admit request i only if Σ_{j&lt;i} ε̃_j(o_j) + sup_o ε̃_i(o) ≤ ε; then
 * charge the realised ε̃_i(o_i)).
 *
 * <p>Protocol for one private computation:
 *
 * <ol>
 *   <li>{@link #reserve}: admission. Atomically checks that the spent budget plus the request's
 *       largest possible cost fits, and charges that worst case; returns only once the charge is
 *       durable. Refuses with {@link BudgetExceededException} (nothing charged) otherwise.
 *   <li>Run the mechanism; do not release its output yet.
 *   <li>{@link #commit}: settle at the realised cost (≤ reserved, e.g. an ex-post ε̃(o)); the rest of
 *       the reservation returns to the budget. Returns once durable; only then release the output.
 * </ol>
 *
 * <p>A crash between 1 and 3 leaves the reservation in place: the worst-case charge stays counted.
 * A committed charge is never lost. {@link #cancel} withdraws a reservation whose mechanism never
 * ran on the data (nothing observed, nothing released). {@link #charge} is reserve-and-commit in one
 * step for ordinary (ex-ante) mechanisms.
 *
 * <p>Amounts are {@link dev.tradeoff.accounting.guarantee.PureDp}, {@link
 * dev.tradeoff.accounting.guarantee.ApproxDp} or {@link dev.tradeoff.accounting.guarantee.RenyiDp}
 * as {@link GuaranteeKind} describes; a budget is exceeded when any coordinate would be. All
 * implementations must be safe for concurrent use by several threads.
 */
public interface BudgetStore extends AutoCloseable {

  /** The total budget. */
  PrivacyGuarantee budget();

  /** The flavour of the budget and of its charges. */
  default GuaranteeKind kind() {
    return GuaranteeKind.of(budget());
  }

  /**
   * Admits a request at its worst-case cost and durably charges that cost.
   *
   * @param label what the charge is for (non-blank)
   * @param worstCase the largest cost the request can realise
   * @throws BudgetExceededException if the charge would overspend; nothing is charged
   * @throws IllegalArgumentException for a blank label or a cost of another flavour
   */
  Reservation reserve(String label, PrivacyGuarantee worstCase);

  /**
   * Settles a reservation at its realised cost, releasing the rest of the reservation.
   *
   * @param realised the realised cost; must not exceed the reservation in any coordinate
   * @return the settled entry
   * @throws IllegalArgumentException if the realised cost exceeds the reservation
   * @throws IllegalStateException if the reservation is unknown or already settled
   */
  LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised);

  /**
   * Withdraws a reservation. Only for requests whose mechanism never touched the data: privacy
   * spent is not refundable.
   *
   * @throws IllegalStateException if the reservation is unknown or already settled
   */
  void cancel(Reservation reservation);

  /** Reserves and commits {@code cost} in one atomic step. */
  LedgerEntry charge(String label, PrivacyGuarantee cost);

  /**
   * Reserves and commits a release described by its event and its (ε, δ), in one atomic step. A
   * store that can admit the event by a tighter filter does so (the SQLite ledger: GDP and RDP
   * filters, see its documentation); the default charges the (ε, δ) as an opaque charge, like
   * {@link #charge(String, PrivacyGuarantee)}.
   *
   * @throws BudgetExceededException if the charge would overspend; nothing is charged
   */
  default LedgerEntry charge(String label, Charge charge) {
    return charge(label, charge.approxDp());
  }

  /**
   * The Rényi order α at which this store runs the ex-post RDP filter of [ExPost25, Algorithm 4]:
   * {@link #reserve} takes a one-order {@link RenyiDp} worst case sup ε̃ at α and {@link #commit}
   * settles it at the realised ε̃(o). The default: a one-order Rényi budget's order, else empty. A
   * store with another budget may run such a filter beside its others (the SQLite ledger does when
   * its policy has an ex-post share).
   */
  default OptionalDouble exPostOrder() {
    return budget() instanceof RenyiDp r && r.size() == 1 ? OptionalDouble.of(r.order(0))
        : OptionalDouble.empty();
  }

  /** Everything counted against the budget: committed charges and open reservations, rounded up. */
  PrivacyGuarantee spent();

  /** The budget minus {@link #spent()}, rounded down, never negative. */
  PrivacyGuarantee remaining();

  /** Every entry, oldest first. */
  List<LedgerEntry> entries();

  /** Releases resources; the ledger file stays. */
  @Override
  void close();
}
