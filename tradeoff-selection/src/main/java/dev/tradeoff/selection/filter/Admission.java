package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import java.util.function.Function;
import java.util.function.Supplier;

/** The admit / run / charge step shared by the three filters (Algorithm 4's loop body). */
final class Admission {

  private Admission() {}

  static <O> O admit(
      BudgetStore store,
      String label,
      PrivacyGuarantee worstCase,
      Supplier<O> mechanism,
      Function<O, PrivacyGuarantee> realised) {
    Reservation reservation = store.reserve(label, worstCase);
    O output;
    try {
      output = mechanism.get();
    } catch (RuntimeException | Error e) {
      store.cancel(reservation);
      throw e;
    }
    PrivacyGuarantee charge;
    try {
      charge = realised.apply(output);
    } catch (RuntimeException e) {
      store.commit(reservation, worstCase);
      throw e;
    }
    store.commit(reservation, charge);
    return output;
  }
}
