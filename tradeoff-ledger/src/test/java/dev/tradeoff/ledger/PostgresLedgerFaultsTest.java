package dev.tradeoff.ledger;

import static dev.tradeoff.ledger.PostgresServer.ANALYST;
import static dev.tradeoff.ledger.PostgresServer.OWNER;
import static dev.tradeoff.ledger.PostgresServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many processes charging one dataset of a real PostgreSQL server, with the server restarted
 * mid-run and clients killed with SIGKILL: never more than the budget, never a committed charge
 * lost, never a charge counted twice.
 */
class PostgresLedgerFaultsTest extends PostgresServerTest {

  /** 1/64: exact in binary, so exactly 37 charges fit a budget of 37/64. */
  private static final double UNIT = 1.0 / 64;
  private static final int ADMITTED = 37;
  private static final int PROCESSES = 4;
  private static final int THREADS = 25;



  @Test
  void fourProcessesOfTwentyFiveThreadsCommitExactlyWhatTheBudgetAdmits() throws Exception {
    String dataset = newDataset("concurrent", ADMITTED * UNIT);
    List<Process> clients = startChargers(dataset, 0);
    int committed = committedBy(clients);
    checkExactlyFull(dataset, committed);
  }

  @Test
  void theSameWithTheServerRestartedInTheMiddle() throws Exception {
    String dataset = newDataset("restarted", ADMITTED * UNIT);
    List<Process> clients = startChargers(dataset, 80);
    // wait until the run is under way, then crash and restart the server under it
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (entries(dataset) < 5 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    long before = entries(dataset);
    server.crash();
    server.startServer();
    int committed = committedBy(clients);
    assertThat(before).as("entries when the server was crashed").isLessThan(ADMITTED);
    checkExactlyFull(dataset, committed);
  }

  @Test
  void clientsKilledAtRandomPointsLoseNoCommittedChargeAndNeverOverspend() throws Exception {
    // room for 96 charges: the streams run into the budget partway through the kills
    String dataset = newDataset("killed", 96 * UNIT);
    Random random = new Random(24);
    Set<Long> reported = new HashSet<>();
    int kills = 0;
    boolean exhausted = false;
    for (int round = 0; round < 6; round++) {
      List<Process> streams = new ArrayList<>();
      List<List<String>> outputs = new ArrayList<>();
      List<Thread> readers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Process p = LedgerProcesses.start(as(ANALYST), "pg-stream", "127.0.0.1",
            Integer.toString(server.location().port()), PostgresServer.DATABASE, dataset,
            Double.toString(UNIT));
        List<String> out = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> out.addAll(lines(p)));
        reader.start();
        streams.add(p);
        outputs.add(out);
        readers.add(reader);
      }
      for (int i = 0; i < streams.size(); i++) {
        // a random point of the charging loop: once the client has charged, 0 to 30 ms later
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (outputs.get(i).isEmpty() && streams.get(i).isAlive()
            && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        Thread.sleep(random.nextInt(31));
        streams.get(i).destroyForcibly(); // SIGKILL: no shutdown hooks, no client rollback
        assertThat(streams.get(i).waitFor(1, TimeUnit.MINUTES)).isTrue();
        kills++;
      }
      for (int i = 0; i < streams.size(); i++) {
        readers.get(i).join(TimeUnit.MINUTES.toMillis(1));
        for (String line : outputs.get(i)) {
          if (line.startsWith("CHARGED ")) {
            reported.add(Long.parseLong(line.substring("CHARGED ".length())));
          }
          exhausted |= line.equals("EXHAUSTED");
        }
      }
      try (PostgresLedger ledger = PostgresLedger.open(server.location(), dataset, as(OWNER))) {
        List<LedgerEntry> entries = ledger.entries();
        Set<Long> committed = new HashSet<>();
        double counted = 0;
        for (LedgerEntry e : entries) {
          counted += ((PureDp) e.charged()).epsilon();
          if (e.status() == EntryStatus.COMMITTED) {
            committed.add(e.id());
          }
        }
        assertThat(committed).as("every charge a client saw committed").containsAll(reported);
        assertThat(counted).isLessThanOrEqualTo(96 * UNIT);
        assertThat(ledger.spent()).isEqualTo(new PureDp(counted));
        ledger.verify();
      }
    }
    assertThat(kills).isGreaterThanOrEqualTo(20);
    assertThat(reported).isNotEmpty();
    // the kills left the ledger usable: what is left can still be charged, exactly
    try (PostgresLedger ledger = PostgresLedger.open(server.location(), dataset, as(ANALYST))) {
      int more = 0;
      while (LedgerWorkerMain.chargeOnce(ledger, "fill " + more, false, UNIT)) {
        more++;
      }
      assertThat(ledger.spent()).isEqualTo(new PureDp(96 * UNIT));
      assertThat(exhausted || more > 0).isTrue();
    }
  }

  private static String newDataset(String name, double budget) {
    PostgresLedger.openOrCreate(server.location(), name, new PureDp(budget), as(OWNER)).close();
    PostgresLedger.grant(server.location(), name, ANALYST, as(OWNER));
    return name;
  }

  /** Starts the clients; thread t of each waits t·{@code stagger} ms before it charges. */
  private static List<Process> startChargers(String dataset, int stagger) throws Exception {
    List<Process> clients = new ArrayList<>();
    for (int i = 0; i < PROCESSES; i++) {
      clients.add(LedgerProcesses.start(as(ANALYST), "pg-charge", "127.0.0.1",
          Integer.toString(server.location().port()), PostgresServer.DATABASE, dataset,
          Integer.toString(THREADS), Double.toString(UNIT), Integer.toString(stagger)));
    }
    return clients;
  }

  /** The charges the clients say were committed; each must also report its refusals. */
  private static int committedBy(List<Process> clients) throws Exception {
    int committed = 0;
    for (Process p : clients) {
      List<String> out = lines(p);
      assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out).hasSize(1);
      String[] words = out.get(0).split(" ");
      assertThat(words[0]).isEqualTo("COMMITTED");
      assertThat(Integer.parseInt(words[1]) + Integer.parseInt(words[3])).isEqualTo(THREADS);
      committed += Integer.parseInt(words[1]);
    }
    return committed;
  }

  private static void checkExactlyFull(String dataset, int committedByClients) {
    assertThat(committedByClients).isEqualTo(ADMITTED);
    try (PostgresLedger ledger = PostgresLedger.open(server.location(), dataset, as(OWNER))) {
      List<LedgerEntry> entries = ledger.entries();
      assertThat(entries).hasSize(ADMITTED).allSatisfy(e -> {
        assertThat(e.status()).isEqualTo(EntryStatus.COMMITTED);
        assertThat(e.charged()).isEqualTo(new PureDp(UNIT));
      });
      assertThat(ledger.spent()).isEqualTo(new PureDp(ADMITTED * UNIT));
      assertThat(ledger.remaining()).isEqualTo(new PureDp(0));
      assertThat(ledger.verify().entries()).isEqualTo(ADMITTED);
    }
  }

  private static long entries(String dataset) throws Exception {
    try (Connection c = server.connect(OWNER); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM tradeoff_entries WHERE dataset = '"
            + dataset + "'")) {
      r.next();
      return r.getLong(1);
    } catch (java.sql.SQLException e) {
      return 0;
    }
  }

  private static List<String> lines(Process p) {
    List<String> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        out.add(line);
      }
    } catch (java.io.IOException e) {
      // the process was killed while we read: what was read is what it reported
    }
    return out;
  }
}
