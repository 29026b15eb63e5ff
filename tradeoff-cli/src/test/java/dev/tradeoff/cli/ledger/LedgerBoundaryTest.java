package dev.tradeoff.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Ledger files that are not ledgers, and ledgers a user can name: refused at the boundary with one
 * line and exit 2 before any planning (the training file these runs name does not exist, so a
 * refusal about the ledger shows that the ledger was checked first), and found by argument,
 * {@code --ledger} or {@code TRADEOFF_LEDGER}, never by a default file.
 */
class LedgerBoundaryTest {

  @TempDir Path dir;

  private List<String> label(String ledger, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("label", "--train",
        dir.resolve("missing-train.csv").toString(), "--queries",
        dir.resolve("missing-q.csv").toString(), "--out", dir.resolve("out").toString(),
        "--epsilon", "1", "--delta", "1e-5", "--classes", "no,yes", "--ledger", ledger));
    args.addAll(List.of(more));
    return args;
  }

  /** A file with the ledger's application_id and schema version but none of its tables. */
  private Path headerOnly() throws Exception {
    Path file = dir.resolve("header-only.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA application_id = " + SqliteLedger.APPLICATION_ID);
      s.execute("PRAGMA user_version = " + SqliteLedger.SCHEMA_VERSION);
    }
    assertThat(Files.size(file)).isPositive();
    return file;
  }

  @Test
  void aFileWithTheLedgersHeaderButNoTablesIsNotALedger() throws Exception {
    String file = headerOnly().toString();
    for (List<String> args : List.of(List.of("ledger", "show", file),
        label(file), label(file, "--ledger-budget", "100,0.1"))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertThat(run.status()).as("%s: %s", args, run.err()).isEqualTo(2);
      assertThat(run.err()).as("%s", args).startsWith("tradeoff: ")
          .contains("is not a Tradeoff privacy ledger").doesNotContain("bug");
      assertThat(run.err().strip().lines()).hasSize(1);
    }
  }

  @Test
  void devicesAreRefusedBeforeAnyPlanning() {
    for (String device : List.of("/dev/null", "/dev/full")) {
      for (List<String> args : List.of(label(device, "--ledger-budget", "100,0.1"),
          label(device), List.of("ledger", "show", device),
          List.of("ledger", "create", device, "--budget", "1,1e-6"))) {
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.status()).as("%s: %s", args, run.err()).isEqualTo(2);
        assertThat(run.err()).as("%s", args)
            .startsWith("tradeoff: cannot use the ledger at " + device)
            .contains("regular file").doesNotContain("bug");
        assertThat(run.err().strip().lines()).hasSize(1);
      }
    }
  }

  @Test
  void showTakesTheLedgerAsArgumentOrFlagAndHasNoDefault() {
    Path file = dir.resolve("team.db");
    try (SqliteLedger l = SqliteLedger.openOrCreate(file, new PureDp(1.0))) {
      l.charge("count", new PureDp(0.25));
    }
    CliRun byArgument = CliRun.of("ledger", "show", file.toString());
    CliRun byFlag = CliRun.of("ledger", "show", "--ledger", file.toString());
    assertThat(byArgument.status()).as(byArgument.err()).isZero();
    assertThat(byArgument.out()).isEqualTo(byFlag.out()).contains("spent      ε=0.25");
    CliRun remaining = CliRun.of("ledger", "remaining", file.toString());
    assertThat(remaining.status()).as(remaining.err()).isZero();

    CliRun two = CliRun.of("ledger", "show", "--ledger", file.toString(),
        dir.resolve("other.db").toString());
    assertThat(two.status()).isEqualTo(2);
    assertThat(two.err()).contains("name two ledgers");
  }

  @Test
  void withoutAPathTheEnvironmentNamesTheLedgerOrTheCommandIsRefused() {
    LedgerFile none = new LedgerFile();
    assertThat(none.path(Map.of(LedgerFile.ENVIRONMENT, "/srv/team.db")).file())
        .isEqualTo(Path.of("/srv/team.db"));
    assertThat(none.path(Map.of(LedgerFile.ENVIRONMENT, "postgresql://db.example.org/team"))
        .server()).isEqualTo(new dev.tradeoff.ledger.PostgresLocation("db.example.org", 5432,
            "team"));
    assertThatThrownBy(() -> none.path(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(LedgerFile.ENVIRONMENT).hasMessageContaining("--ledger");
    LedgerFile given = new LedgerFile();
    new CommandLine(new Object() {
      @CommandLine.Mixin LedgerFile ledger = given;
    }).parseArgs("a.db");
    assertThat(given.path(Map.of(LedgerFile.ENVIRONMENT, "/srv/team.db")).file())
        .isEqualTo(Path.of("a.db"));
    if (System.getenv(LedgerFile.ENVIRONMENT) == null) {
      CliRun run = CliRun.of("ledger", "show");
      assertThat(run.status()).isEqualTo(2);
      assertThat(run.err()).startsWith("tradeoff: no ledger given").contains("TRADEOFF_LEDGER");
      assertThat(Files.exists(Path.of("tradeoff-ledger.db"))).isFalse();
    }
  }
}
