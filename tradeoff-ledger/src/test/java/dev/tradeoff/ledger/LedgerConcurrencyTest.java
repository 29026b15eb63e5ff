package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerConcurrencyTest {

  /** 1/64: exact in binary, so 64 charges fill a budget of 1 exactly. */
  private static final double UNIT = 1.0 / 64;

  @TempDir Path dir;

  @Test
  void eightThreadsAndTwoProcessesChargingConcurrentlyNeverExceedTheBudget() throws Exception {
    Path file = dir.resolve("shared.db");
    SqliteLedger.openOrCreate(file, new PureDp(1.0)).close();

    List<Process> processes = List.of(
        LedgerProcesses.start("spend", file.toString(), "30", Double.toString(UNIT)),
        LedgerProcesses.start("spend", file.toString(), "30", Double.toString(UNIT)));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      String who = "thread " + t;
      threads.add(pool.submit(() -> {
        try (SqliteLedger ledger = SqliteLedger.open(file)) {
          return LedgerWorkerMain.spend(ledger, who, 12, UNIT);
        }
      }));
    }
    int successes = 0;
    for (Future<Integer> f : threads) {
      successes += f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
    for (Process p : processes) {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line = out.readLine();
        assertThat(line).startsWith("SUCCESSES ");
        successes += Integer.parseInt(line.substring("SUCCESSES ".length()));
      }
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).isZero();
    }

    try (SqliteLedger ledger = SqliteLedger.open(file)) {
      // 156 attempts against room for 64: the budget must have been contended
      assertThat(successes).isPositive().isLessThanOrEqualTo(64);
      List<LedgerEntry> entries = ledger.entries();
      assertThat(entries).hasSize(successes);
      assertThat(entries).allSatisfy(e -> {
        assertThat(e.status()).isEqualTo(EntryStatus.COMMITTED);
        assertThat(e.charged()).isEqualTo(new PureDp(UNIT));
      });
      assertThat(ledger.spent()).isEqualTo(new PureDp(successes * UNIT));
      // fill what is left one by one: exactly 64 charges fit in total, no more
      int more = 0;
      while (true) {
        try {
          ledger.charge("fill " + more, new PureDp(UNIT));
          more++;
        } catch (BudgetExceededException e) {
          break;
        }
      }
      assertThat(successes + more).isEqualTo(64);
      assertThat(ledger.spent()).isEqualTo(new PureDp(1.0));
      assertThatThrownBy(() -> ledger.reserve("one more", new PureDp(UNIT)))
          .isInstanceOf(BudgetExceededException.class);
    }
  }

  /**
   * A commit truncates the rollback journal instead of unlinking it (journal_mode=TRUNCATE), so no
   * commit can fail because the journal was already gone (SQLITE_IOERR_DELETE_NOENT).
   */
  @Test
  void aCommitTruncatesTheJournalAndNeverDeletesIt() throws Exception {
    Path file = dir.resolve("journal.db");
    Path journal = dir.resolve("journal.db-journal");
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(file, new PureDp(1.0))) {
      assertThat(journal).exists();
      assertThat(java.nio.file.Files.size(journal)).isZero();
      for (int i = 0; i < 3; i++) {
        ledger.charge("charge " + i, new PureDp(UNIT));
        assertThat(journal).exists();
        assertThat(java.nio.file.Files.size(journal)).isZero();
      }
    }
  }

  /**
   * Eight threads of one JVM open-or-create the same absent file, 64 times. Before the file was
   * made before any connection opened it, two of them sometimes both initialised it (1 to 11 in
   * 400 such rounds), and the first one's handle then refused every charge; a charge made in
   * between would have been overwritten.
   */
  @Test
  void concurrentCreationOfTheSameLedgerYieldsOneLedger() throws Exception {
    int openers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(openers);
    try {
      for (int round = 0; round < 64; round++) {
        Path file = dir.resolve("created-" + round + ".db");
        List<Future<SqliteLedger>> opened = new ArrayList<>();
        for (int t = 0; t < openers; t++) {
          opened.add(pool.submit(() -> SqliteLedger.openOrCreate(file, new PureDp(1.0))));
        }
        for (Future<SqliteLedger> f : opened) {
          try (SqliteLedger ledger = f.get(1, TimeUnit.MINUTES)) {
            ledger.charge("once per opener", new PureDp(0.125));
          }
        }
        try (SqliteLedger ledger = SqliteLedger.open(file)) {
          assertThat(ledger.entries()).as("round %d", round).hasSize(openers);
          assertThat(ledger.remaining()).isEqualTo(new PureDp(0));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
