package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCrashTest {

  @TempDir Path dir;

  @Test
  void processKilledBetweenReservationAndSettlementLosesNoChargeAndKeepsTheWorstCase()
      throws Exception {
    Path file = dir.resolve("crash.db");
    SqliteLedger.openOrCreate(file, new PureDp(1.0)).close();
    Process p = LedgerProcesses.start("hold", file.toString());
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("HOLDING");
      p.destroyForcibly(); // SIGKILL: no shutdown hooks, no cleanup
      assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
    }
    try (SqliteLedger ledger = SqliteLedger.open(file)) {
      List<LedgerEntry> entries = ledger.entries();
      assertThat(entries).hasSize(2);
      assertThat(entries.get(0).status()).isEqualTo(EntryStatus.COMMITTED);
      assertThat(entries.get(0).charged()).isEqualTo(new PureDp(0.25));
      assertThat(entries.get(1).status()).isEqualTo(EntryStatus.RESERVED);
      assertThat(entries.get(1).charged()).isEqualTo(new PureDp(0.5));
      assertThat(entries.get(1).processId()).isEqualTo(p.pid());
      assertThat(ledger.spent()).isEqualTo(new PureDp(0.75));
      assertThat(ledger.remaining()).isEqualTo(new PureDp(0.25));
    }
  }

  @Test
  void everyChargeReportedBeforeAKillIsOnDiskAndTheFileStaysUsable() throws Exception {
    Path file = dir.resolve("stream.db");
    SqliteLedger.openOrCreate(file, new PureDp(1.0)).close();
    Process p = LedgerProcesses.start("stream", file.toString());
    Set<Long> reported = new HashSet<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (int i = 0; i < 25; i++) {
        String line = out.readLine();
        assertThat(line).startsWith("CHARGED ");
        reported.add(Long.parseLong(line.substring("CHARGED ".length())));
      }
      // most likely in the middle of the next transaction (destroying also closes our pipe)
      p.destroyForcibly();
      assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
    }
    try (SqliteLedger ledger = SqliteLedger.open(file)) {
      List<LedgerEntry> entries = ledger.entries();
      Set<Long> stored = new HashSet<>();
      entries.forEach(e -> stored.add(e.id()));
      assertThat(stored).containsAll(reported);
      assertThat(ledger.spent()).isEqualTo(new PureDp(entries.size() / 1024.0));
      ledger.charge("after the crash", new PureDp(0.5)); // a hot journal was rolled back cleanly
    }
  }
}
