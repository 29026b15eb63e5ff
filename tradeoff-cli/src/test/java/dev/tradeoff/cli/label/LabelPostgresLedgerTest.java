package dev.tradeoff.cli.label;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.ledger.PostgresServerTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tradeoff} command against a real PostgreSQL server (tradeoff-ledger's test harness):
 * {@code ledger create/charge/remaining/verify} and {@code label --ledger postgresql://...}, whose
 * charge is in the database before any label is written and whose refusal writes nothing. The
 * command runs in this JVM without {@code PGUSER}, so it connects as the operating-system user,
 * who owns the test database.
 */
class LabelPostgresLedgerTest extends PostgresServerTest {

  private static final String ROLE = System.getProperty("user.name");
  private static String url;

  @TempDir Path dir;

  @BeforeAll
  static void database() throws Exception {
    url = server.databaseOwnedBy(ROLE, "cli_ledger").toString();
  }

  @Test
  void labelChargesTheDatasetInTheDatabaseBeforeWritingAndARefusalWritesNothing()
      throws Exception {
    CliRun created = CliRun.of("ledger", "create", "--ledger", url, "--dataset", "clicks",
        "--budget", "6,1e-4", "--filters", "basic");
    assertThat(created.status()).as(created.err()).isZero();
    assertThat(created.out()).contains("dataset \"clicks\"");
    CliRun outside = CliRun.of("ledger", "charge", "--ledger", url, "--dataset", "clicks",
        "--mechanism", "approx:epsilon=1,delta=1e-6", "--label", "made elsewhere");
    assertThat(outside.status()).as(outside.err()).isZero();
    assertThat(remainingEpsilon()).isBetween(4.999, 5.0); // 6 - 1, rounded down

    LabelCommandTest.data(dir, 200, 20);
    CliRun labelled = CliRun.of(label(dir.resolve("o1"), "4", "--json"));
    assertThat(labelled.status()).as(labelled.err()).isZero();
    JsonNode entry = labelled.json().get("ledger");
    assertThat(LabelCommandTest.labelFiles(dir.resolve("o1"))).isPositive();
    assertThat(entries()).containsExactly("COMMITTED made elsewhere",
        "COMMITTED " + entry.get("label").asText());
    assertThat(remainingEpsilon()).isBetween(1.0, 1.1);

    CliRun refused = CliRun.of(label(dir.resolve("o2"), "4"));
    assertThat(refused.status()).as(refused.err()).isEqualTo(LabelCommand.OVER_BUDGET);
    assertThat(refused.err()).contains("budget").hasLineCount(1);
    assertThat(dir.resolve("o2")).doesNotExist();
    assertThat(entries()).hasSize(2);
    CliRun verified = CliRun.of("ledger", "verify", "--ledger", url, "--dataset", "clicks");
    assertThat(verified.status()).as(verified.err()).isZero();
    assertThat(verified.out()).startsWith("ok: 2 entries");
  }

  @Test
  void aDatasetIsCreatedOnceAndAnotherDatasetIsNotCharged() {
    assertThat(CliRun.of("ledger", "create", "--ledger", url, "--dataset", "visits", "--budget",
        "1,1e-6").status()).isZero();
    CliRun again = CliRun.of("ledger", "create", "--ledger", url, "--dataset", "visits",
        "--budget", "9,1e-6");
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("already has dataset visits").hasLineCount(1);
    CliRun missing = CliRun.of("ledger", "remaining", "--ledger", url, "--dataset", "sales");
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).contains("no dataset \"sales\"").hasLineCount(1);
  }

  private String[] label(Path out, String epsilon, String... more) {
    List<String> a = new ArrayList<>(List.of("label", "--train", dir.resolve("train.csv")
        .toString(), "--queries", dir.resolve("q.csv").toString(), "--out", out.toString(),
        "--epsilon", epsilon, "--delta", "1e-5", "--classes", "no,yes", "--ledger", url,
        "--dataset", "clicks"));
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  private static double remainingEpsilon() {
    CliRun run = CliRun.of("ledger", "remaining", "--ledger", url, "--dataset", "clicks",
        "--json");
    assertThat(run.status()).as(run.err()).isZero();
    return run.json().get("remaining").get("epsilon").asDouble();
  }

  /** The dataset's entries as the database holds them: status and label, oldest first. */
  private static List<String> entries() throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = server.connect(ROLE, "cli_ledger"); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT coalesce(t.status, 'RESERVED'), e.label"
            + " FROM tradeoff_entries e LEFT JOIN tradeoff_settlements t ON t.entry_id = e.id"
            + " WHERE e.dataset = 'clicks' ORDER BY e.id")) {
      while (r.next()) {
        out.add(r.getString(1) + " " + r.getString(2));
      }
    }
    return out;
  }
}
