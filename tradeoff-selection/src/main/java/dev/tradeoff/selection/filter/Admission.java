package dev.tradeoff.selection.filter;

import java.util.function.Function;
import java.util.function.Supplier;

/** The reserve / run / charge step shared by the three filters (Algorithm 4's loop body). */
final class Admission {

  private Admission() {}

  static <O> O admit(
      BudgetStore store,
      Charge budget,
      String description,
      Charge maximum,
      Supplier<O> mechanism,
      Function<O, Charge> realised) {
    BudgetStore.Reservation reservation = store.reserve(description, maximum, budget);
    O output;
    try {
      output = mechanism.get();
    } catch (RuntimeException | Error e) {
      reservation.release();
      throw e;
    }
    Charge charge;
    try {
      charge = realised.apply(output);
    } catch (RuntimeException e) {
      reservation.commit(maximum);
      throw e;
    }
    reservation.commit(charge);
    return output;
  }
}
