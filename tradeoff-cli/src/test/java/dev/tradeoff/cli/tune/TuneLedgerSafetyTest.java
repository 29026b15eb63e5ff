package dev.tradeoff.cli.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.cli.CliRun;
import dev.tradeoff.cli.TradeoffCommand;
import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tune --ledger} against the ways a ledger file goes wrong: concurrent first runs, a
 * missing or read-only directory, a read-only file, and a JVM killed while a candidate runs.
 */
class TuneLedgerSafetyTest {

  @TempDir Path dir;

  private Path plan(String command) throws Exception {
    return Files.writeString(dir.resolve("plan-" + System.nanoTime() + ".json"),
        "{\"epsilonPrime\": 5, \"timeoutSeconds\": 60, \"command\": \"" + command + "\","
            + " \"candidates\": ["
            + "  {\"name\": \"low\", \"epsilon\": 0.25, \"hyperparameters\": {\"score\": 0.5}},"
            + "  {\"name\": \"high\", \"epsilon\": 0.5, \"hyperparameters\": {\"score\": 0.9}}]}");
  }

  private static final String ECHO = "echo '{\\\"score\\\": {score}, \\\"epsilon\\\": {epsilon}}'";

  @Test
  void twentyConcurrentFirstRunsOnANewLedgerAllSucceed() throws Exception {
    Path plan = plan(ECHO);
    Path ledger = dir.resolve("new.db");
    ExecutorService pool = Executors.newFixedThreadPool(20);
    try {
      List<Future<CliRun>> runs = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        runs.add(pool.submit(() -> CliRun.of("tune", "--plan", plan.toString(), "--ledger",
            ledger.toString(), "--budget", "1000")));
      }
      for (Future<CliRun> f : runs) {
        CliRun run = f.get(120, TimeUnit.SECONDS);
        assertThat(run.status()).as(run.err()).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(20);
    }
  }

  @Test
  void aMissingDirectoryIsRefusedInOneLine() throws Exception {
    CliRun run = CliRun.of("tune", "--plan", plan(ECHO).toString(), "--ledger",
        dir.resolve("no/such/dir/ledger.db").toString(), "--budget", "10");
    assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(run.err().strip()).startsWith("tradeoff: --ledger must be in an existing directory")
        .doesNotContain("\n");
    CliRun show = CliRun.of("ledger", "show", "--ledger", dir.resolve("no/l.db").toString());
    assertThat(show.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(show.err().strip()).startsWith("tradeoff: --ledger must be in an existing directory");
  }

  @Test
  void aReadOnlyDirectoryOrFileIsRefusedInOneLine() throws Exception {
    Path plan = plan(ECHO);
    Path locked = Files.createDirectory(dir.resolve("locked"));
    Path ledger = locked.resolve("ledger.db");
    assertThat(CliRun.of("tune", "--plan", plan.toString(), "--ledger", ledger.toString(),
        "--budget", "10").status()).isZero();
    try {
      readOnly(ledger);
      readOnly(locked);
      CliRun run = CliRun.of("tune", "--plan", plan.toString(), "--ledger", ledger.toString());
      assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
      assertThat(run.err().strip()).startsWith("tradeoff: --ledger must be in a writable directory")
          .doesNotContain("\n");
      writable(locked);
      CliRun file = CliRun.of("tune", "--plan", plan.toString(), "--ledger", ledger.toString());
      assertThat(file.status()).isEqualTo(Failures.BAD_INPUT);
      assertThat(file.err().strip()).startsWith("tradeoff: --ledger must be writable")
          .doesNotContain("\n");
    } finally {
      writable(locked);
      writable(ledger);
    }
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(1);
    }
  }

  /**
   * Makes {@code path} read-only for this process: by its permissions, and, since root ignores
   * those (as in CI), by the immutable attribute ({@code chattr +i}), which binds root too.
   */
  private static void readOnly(Path path) throws Exception {
    boolean directory = Files.isDirectory(path);
    Files.setPosixFilePermissions(path,
        PosixFilePermissions.fromString(directory ? "r-xr-xr-x" : "r--r--r--"));
    if (Files.isWritable(path)) {
      run("chattr", "+i", path.toString());
    }
    assertThat(Files.isWritable(path)).as("%s is still writable", path).isFalse();
  }

  private static void writable(Path path) throws Exception {
    if (Files.exists(path)) {
      run("chattr", "-i", path.toString());
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
          Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
    }
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as("%s: %s", String.join(" ", command), out).isZero();
  }

  @Test
  void aReadOnlyFileSystemIsRefusedInOneLine() throws Exception {
    // a read-only file system binds root too: a tmpfs this test mounts read-only (root, as in CI),
    // or /sys, which containers mount read-only, where this process cannot mount
    Path mount = Files.createDirectory(dir.resolve("read-only-fs"));
    boolean mounted = Files.isWritable(Path.of("/sys"))
        && new ProcessBuilder("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", mount.toString())
            .redirectErrorStream(true).start().waitFor() == 0;
    Path target = mounted ? mount : Path.of("/sys");
    assertThat(mounted || !Files.isWritable(target)).as("no read-only file system here").isTrue();
    try {
      CliRun run = CliRun.of("tune", "--plan", "/dev/null", "--ledger",
          target.resolve("ledger.db").toString(), "--budget", "10");
      assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
      assertThat(run.err().strip()).startsWith("tradeoff: ").doesNotContain("\n")
          .doesNotContain("Exception");
      assertThat(target.resolve("ledger.db")).doesNotExist();
    } finally {
      if (mounted) {
        run("umount", mount.toString());
      }
    }
  }

  @Test
  void theCandidatesProcessTreeEndsWithTheJvm() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    // the candidate starts a grandchild (sleep) and waits: both must end when the JVM is stopped
    Path plan = plan("sleep 300 & echo $! > " + pidFile + "; wait");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        TradeoffCommand.class.getName(), "tune", "--plan", plan.toString(), "--quiet")
        .redirectErrorStream(true).redirectOutput(dir.resolve("jvm.log").toFile()).start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!(Files.exists(pidFile) && Files.size(pidFile) > 0) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(pidFile).as(Files.exists(dir.resolve("jvm.log"))
          ? Files.readString(dir.resolve("jvm.log")) : "no log").exists();
      long sleepPid = Long.parseLong(Files.readString(pidFile).strip());
      Optional<ProcessHandle> sleeper = ProcessHandle.of(sleepPid);
      assertThat(sleeper).isPresent();
      jvm.destroy(); // SIGTERM, as a user's kill or Ctrl-C
      assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (sleeper.get().isAlive() && System.nanoTime() < until) {
        Thread.sleep(100);
      }
      assertThat(sleeper.get().isAlive()).as("the candidate's grandchild outlived the JVM; its log: "
          + Files.readString(dir.resolve("jvm.log"))).isFalse();
    } finally {
      jvm.descendants().forEach(ProcessHandle::destroyForcibly);
      jvm.destroyForcibly();
    }
  }
}
