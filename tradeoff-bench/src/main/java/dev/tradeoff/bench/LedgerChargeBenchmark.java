package dev.tradeoff.bench;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.ledger.PostgresLedger;
import dev.tradeoff.ledger.PostgresLocation;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.ledger.SqliteLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Committed charges per second on one budget, by 1 and by 16 concurrent clients (JMH threads,
 * each with its own ledger handle), on the SQLite ledger (a file in a temporary directory) and on
 * the PostgreSQL ledger. Each trial charges one fresh budget, which grows through the trial's
 * iterations (by a few hundred to a few thousand entries each), and every client opens it again at
 * each iteration (an open verifies the whole chain); so an iteration's figure is for a budget that
 * already holds what the iterations before it wrote, and a rate that falls from iteration to
 * iteration is a write whose cost grows with the history (as when every write re-verified the
 * whole chain; now a write verifies only what is new since its handle's last write).
 *
 * <p>PostgreSQL: the server is given as {@code -Dtradeoff.bench.postgres=postgresql://HOST:PORT/DB}
 * and the role as {@code PGUSER} (the role must be able to create datasets); without the property
 * the {@code postgresql} cases fail at setup. docs/ledger.md shows how to start a local server.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 4, time = 5)
@Fork(1)
public class LedgerChargeBenchmark {

  private static final AtomicLong DATASETS = new AtomicLong();

  @Param({"sqlite", "postgresql"})
  public String store;

  private Path dir;
  private Path file;
  private String dataset;

  /** A fresh budget large enough never to refuse: 10^6, charged 10^-6 at a time. */
  @Setup(Level.Trial)
  public void freshBudget() throws IOException {
    if (store.equals("sqlite")) {
      dir = Files.createTempDirectory("tradeoff-ledger-bench");
      file = dir.resolve("bench.db");
      SqliteLedger.openOrCreate(file, new PureDp(1e6)).close();
    } else {
      dataset = "bench-" + ProcessHandle.current().pid() + "-" + DATASETS.incrementAndGet();
      PostgresLedger.openOrCreate(server(), dataset, new PureDp(1e6)).close();
    }
  }

  @TearDown(Level.Trial)
  public void removeFile() throws IOException {
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
      dir = null;
    }
  }

  private static PostgresLocation server() {
    String given = System.getProperty("tradeoff.bench.postgres");
    if (given == null) {
      throw new IllegalStateException("set -Dtradeoff.bench.postgres=postgresql://HOST:PORT/DB");
    }
    return PostgresLocation.parse(given);
  }

  /** One client: its own handle on the iteration's budget. */
  @State(Scope.Thread)
  public static class Client {
    PrivacyLedger ledger;
    long n;

    @Setup(Level.Iteration)
    public void open(LedgerChargeBenchmark b) {
      ledger = b.store.equals("sqlite") ? SqliteLedger.open(b.file)
          : PostgresLedger.open(server(), b.dataset);
    }

    @TearDown(Level.Iteration)
    public void close() {
      ledger.close();
    }
  }

  @Benchmark
  @Threads(1)
  public long oneClient(Client c) {
    return c.ledger.charge("bench " + c.n++, new PureDp(1e-6)).id();
  }

  @Benchmark
  @Threads(16)
  public long sixteenClients(Client c) {
    return c.ledger.charge("bench " + c.n++, new PureDp(1e-6)).id();
  }
}
