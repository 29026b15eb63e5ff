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
 *   <li>{@code pg-charge HOST PORT DB DATASET THREADS UNIT STAGGER}: THREADS threads each make one
 *       charge of UNIT on a PostgreSQL ledger, thread t after t·STAGGER ms (even threads in one step, odd ones as reserve/commit of
 *       UNIT); prints {@code COMMITTED n REFUSED m}.
 *   <li>{@code pg-stream HOST PORT DB DATASET UNIT}: charges UNIT over and over on a PostgreSQL
 *       ledger, alternating one-step charges and reserve/commit, printing {@code CHARGED id}
 *       after each returns, until killed or refused.
 * </ul>
 *
 * <p>The PostgreSQL modes connect as the role {@code PGUSER} names.
 */
public final class LedgerWorkerMain {

  private LedgerWorkerMain() {}

  public static void main(String[] args) throws Exception {
    if (args[0].startsWith("pg-")) {
      postgres(args);
      return;
    }
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

  private static void postgres(String[] args) throws Exception {
    PostgresLocation server = new PostgresLocation(args[1], Integer.parseInt(args[2]), args[3]);
    try (PostgresLedger ledger = PostgresLedger.open(server, args[4])) {
      if (args[0].equals("pg-charge")) {
        int threads = Integer.parseInt(args[5]);
        double unit = Double.parseDouble(args[6]);
        long stagger = Long.parseLong(args[7]);
        java.util.concurrent.ExecutorService pool =
            java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<Boolean>> done = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
          String who = "process " + ProcessHandle.current().pid() + " thread " + t;
          boolean twoPhase = t % 2 == 1;
          long wait = t * stagger;
          done.add(pool.submit(() -> {
            go.await();
            Thread.sleep(wait);
            return chargeOnce(ledger, who, twoPhase, unit);
          }));
        }
        go.countDown();
        int committed = 0;
        for (java.util.concurrent.Future<Boolean> f : done) {
          committed += f.get() ? 1 : 0;
        }
        pool.shutdown();
        System.out.println("COMMITTED " + committed + " REFUSED " + (threads - committed));
      } else {
        double unit = Double.parseDouble(args[5]);
        try {
          for (int i = 0; ; i++) {
            long id = i % 2 == 0 ? ledger.charge("stream " + i, new PureDp(unit)).id()
                : ledger.commit(ledger.reserve("stream " + i, new PureDp(unit)),
                    new PureDp(unit)).id();
            System.out.println("CHARGED " + id);
            System.out.flush();
          }
        } catch (BudgetExceededException e) {
          System.out.println("EXHAUSTED");
        }
      }
    }
  }

  /** One charge of {@code unit}: true if committed, false if refused. */
  static boolean chargeOnce(BudgetStore ledger, String who, boolean twoPhase, double unit) {
    try {
      if (twoPhase) {
        ledger.commit(ledger.reserve(who, new PureDp(unit)), new PureDp(unit));
      } else {
        ledger.charge(who, new PureDp(unit));
      }
      return true;
    } catch (BudgetExceededException refused) {
      return false;
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
