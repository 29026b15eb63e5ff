package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.nio.file.Path;

/**
 * A second process for the ledger tests, started with {@code java -cp <test class path>}. Modes:
 *
 * <ul>
 *   <li>{@code spend FILE ATTEMPTS UNIT}: ATTEMPTS charges of UNIT, alternating one-step charges
 *       and two-phase reserve(2·UNIT)/commit(UNIT); prints {@code SUCCESSES n}.
 *   <li>{@code hold FILE}: commits 0.25, reserves 0.5, prints {@code HOLDING}, then waits to be
 *       killed between reservation and settlement.
 *   <li>{@code stream FILE}: charges 1/1024 over and over, printing {@code CHARGED id} after each
 *       charge returns, until killed or refused.
 * </ul>
 */
public final class LedgerWorkerMain {

  private LedgerWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path file = Path.of(args[1]);
    switch (args[0]) {
      case "spend" -> {
        try (SqliteLedger ledger = SqliteLedger.open(file)) {
          int successes = spend(ledger, "process " + ProcessHandle.current().pid(),
              Integer.parseInt(args[2]), Double.parseDouble(args[3]));
          System.out.println("SUCCESSES " + successes);
        }
      }
      case "hold" -> {
        try (SqliteLedger ledger = SqliteLedger.open(file)) {
          ledger.charge("committed before the crash", new PureDp(0.25));
          ledger.reserve("reserved before the crash", new PureDp(0.5));
          System.out.println("HOLDING");
          System.out.flush();
          Thread.sleep(600_000);
        }
      }
      case "stream" -> {
        try (SqliteLedger ledger = SqliteLedger.open(file)) {
          for (int i = 0; ; i++) {
            LedgerEntry e = ledger.charge("stream " + i, new PureDp(1.0 / 1024));
            System.out.println("CHARGED " + e.id());
            System.out.flush();
          }
        } catch (BudgetExceededException e) {
          System.out.println("EXHAUSTED");
        }
      }
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  /** The workload shared by threads and processes; returns the number of admitted charges. */
  static int spend(BudgetStore ledger, String who, int attempts, double unit) {
    int successes = 0;
    for (int i = 0; i < attempts; i++) {
      try {
        if (i % 2 == 0) {
          ledger.charge(who + " charge " + i, new PureDp(unit));
        } else {
          Reservation r = ledger.reserve(who + " two-phase " + i, new PureDp(2 * unit));
          ledger.commit(r, new PureDp(unit));
        }
        successes++;
      } catch (BudgetExceededException refused) {
        // the budget is (momentarily) full; keep trying, as concurrent clients would
      }
    }
    return successes;
  }
}
