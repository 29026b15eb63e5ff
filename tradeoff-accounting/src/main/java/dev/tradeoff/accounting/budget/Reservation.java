package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;
import java.time.Instant;

/**
 * An admitted request, durably charged at its worst-case cost until {@link BudgetStore#commit}
 * settles it at the realised cost.
 *
 * @param id the ledger entry's id
 * @param label what the charge is for
 * @param reserved the worst-case cost charged now
 * @param reservedAt when it was admitted
 */
public record Reservation(long id, String label, PrivacyGuarantee reserved, Instant reservedAt) {

  public Reservation {
    Require.positive("id", id);
    Require.nonNull("label", label);
    Require.nonNull("reserved", reserved);
    Require.nonNull("reservedAt", reservedAt);
  }
}
