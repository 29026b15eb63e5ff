package dev.tradeoff.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCommandTest {

  @TempDir Path dir;

  @Test
  void showListsBudgetSpentRemainingAndEveryChargeAsJson() {
    Path file = dir.resolve("l.db");
    try (SqliteLedger l = SqliteLedger.openOrCreate(file, new ApproxDp(1.0, 1e-6))) {
      l.charge("counts", new PureDp(0.25));
      l.reserve("tuning run", new ApproxDp(0.5, 1e-7));
    }
    CliRun run = CliRun.of("ledger", "show", "--ledger", file.toString(), "--json");
    assertThat(run.status()).isZero();
    JsonNode doc = run.json();
    assertThat(doc.get("kind").asText()).isEqualTo("APPROX_DP");
    assertThat(doc.get("budget").get("epsilon").asDouble()).isEqualTo(1.0);
    assertThat(doc.get("spent").get("epsilon").asDouble()).isEqualTo(0.75);
    assertThat(doc.get("remaining").get("epsilon").asDouble()).isEqualTo(0.25);
    assertThat(doc.get("entries")).hasSize(2);
    JsonNode second = doc.get("entries").get(1);
    assertThat(second.get("label").asText()).isEqualTo("tuning run");
    assertThat(second.get("status").asText()).isEqualTo("RESERVED");
    assertThat(second.get("charged").get("delta").asDouble()).isEqualTo(1e-7);
    assertThat(second.get("committedAt").isNull()).isTrue();
    assertThat(doc.get("entries").get(0).get("committedAt").asText()).isNotBlank();
  }

  @Test
  void showPrintsAReadableTable() {
    Path file = dir.resolve("l.db");
    try (SqliteLedger l = SqliteLedger.openOrCreate(file, new PureDp(1.0))) {
      l.charge("histogram release", new PureDp(0.1));
    }
    CliRun run = CliRun.of("ledger", "show", "--ledger", file.toString());
    assertThat(run.status()).isZero();
    assertThat(run.out())
        .contains("budget     ε=1")
        .contains("spent      ε=0.1")
        .contains("remaining  ε=0.899999") // 1 - 0.1 exactly, rounded down
        .contains("COMMITTED")
        .contains("histogram release");
  }

  @Test
  void aMissingOrForeignLedgerIsOneLineOnStderrWithStatusTwo() throws Exception {
    CliRun missing = CliRun.of("ledger", "show", "--ledger", dir.resolve("none.db").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).startsWith("tradeoff: no privacy ledger at");
    Path foreign = dir.resolve("foreign.db");
    Files.writeString(foreign, "not a database at all, just some text".repeat(50));
    CliRun bad = CliRun.of("ledger", "show", "--ledger", foreign.toString());
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).startsWith("tradeoff: ").contains("not a Tradeoff privacy ledger");
    assertThat(bad.err().lines()).hasSize(1);
  }

  @Test
  void aFileHoldsOneBudgetPerDatasetAndEveryChargeNamesOne() {
    String file = dir.resolve("team.db").toString();
    assertThat(CliRun.of("ledger", "create", "--ledger", file, "--dataset", "clicks", "--budget",
        "1,1e-6", "--filters", "basic").status()).isZero();
    assertThat(CliRun.of("ledger", "create", "--ledger", file, "--dataset", "visits", "--budget",
        "4,1e-6", "--filters", "basic").status()).isZero();
    CliRun again = CliRun.of("ledger", "create", "--ledger", file, "--dataset", "clicks",
        "--budget", "9,1e-6");
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("already has dataset clicks");
    CliRun charged = CliRun.of("ledger", "charge", "--ledger", file, "--dataset", "visits",
        "--mechanism", "pure:epsilon=1", "--label", "counts");
    assertThat(charged.status()).as(charged.err()).isZero();
    JsonNode visits = CliRun.of("ledger", "remaining", "--ledger", file, "--dataset", "visits",
        "--json").json();
    JsonNode clicks = CliRun.of("ledger", "remaining", "--ledger", file, "--dataset", "clicks",
        "--json").json();
    // 4 less the charge's (epsilon, delta) at the policy's event delta, about 1
    assertThat(visits.get("remaining").get("epsilon").asDouble()).isBetween(2.99, 3.01);
    assertThat(clicks.get("remaining").get("epsilon").asDouble()).isEqualTo(1.0);
    CliRun none = CliRun.of("ledger", "show", "--ledger", file);
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err()).contains("no dataset \"default\"");
  }
}
