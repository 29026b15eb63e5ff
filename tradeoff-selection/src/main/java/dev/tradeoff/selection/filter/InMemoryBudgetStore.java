package dev.tradeoff.selection.filter;

import dev.tradeoff.accounting.Require;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link BudgetStore} in memory, safe for concurrent use by the threads of one process (every
 * operation holds the store's lock). It keeps the committed charges with their descriptions.
 */
public final class InMemoryBudgetStore implements BudgetStore {

  /** One committed charge. */
  public record Entry(String description, Charge charge) {}

  private final Object lock = new Object();
  private final List<Entry> entries = new ArrayList<>();
  private Charge committed = Charge.ZERO;
  private Charge reserved = Charge.ZERO;

  @Override
  public Charge spent() {
    synchronized (lock) {
      return committed.plus(reserved);
    }
  }

  /** The committed charges, oldest first. */
  public List<Entry> entries() {
    synchronized (lock) {
      return List.copyOf(entries);
    }
  }

  @Override
  public Reservation reserve(String description, Charge maximum, Charge budget) {
    Require.nonNull("description", description);
    Require.nonNull("maximum", maximum);
    Require.nonNull("budget", budget);
    synchronized (lock) {
      Charge after = committed.plus(reserved).plus(maximum);
      if (!after.fitsWithin(budget)) {
        throw new BudgetExceededException(
            description, maximum, budget.minusFloorZero(committed.plus(reserved)));
      }
      reserved = reserved.plus(maximum);
      return new Open(description, maximum);
    }
  }

  private final class Open implements Reservation {
    private final String description;
    private final Charge maximum;
    private boolean settled;

    Open(String description, Charge maximum) {
      this.description = description;
      this.maximum = maximum;
    }

    @Override
    public Charge maximum() {
      return maximum;
    }

    @Override
    public void commit(Charge realised) {
      Require.nonNull("realised", realised);
      Require.that(
          realised.fitsWithin(maximum), "realised charge", "must not exceed " + maximum, realised);
      synchronized (lock) {
        settle();
        committed = committed.plus(realised);
        entries.add(new Entry(description, realised));
      }
    }

    @Override
    public void release() {
      synchronized (lock) {
        settle();
      }
    }

    private void settle() {
      if (settled) {
        throw new IllegalStateException("reservation for " + description + " is already settled");
      }
      settled = true;
      reserved =
          new Charge(
              Math.max(0, reserved.epsilon() - maximum.epsilon()),
              Math.max(0, reserved.delta() - maximum.delta()));
    }
  }
}
