package dev.tradeoff.cli.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.LedgerAmounts;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tradeoff tune}, {@code tune invocations} and {@code reproduce expost}. */
class TuneCommandTest {

  @TempDir Path dir;

  private Path plan(String json) throws Exception {
    Path p = dir.resolve("plan.json");
    Files.writeString(p, json);
    return p;
  }

  /** ε′ = 5: k = 0 (nothing dropped) with probability 1 − e^{−5} ≈ 0.993. */
  private static String twoCandidates(String secondCommand) {
    return "{\"epsilonPrime\": 5, \"timeoutSeconds\": 20,"
        + " \"command\": \"echo '{\\\"score\\\": {score}, \\\"epsilon\\\": {epsilon}}'\","
        + " \"candidates\": ["
        + "  {\"name\": \"low\", \"epsilon\": 0.25, \"hyperparameters\": {\"score\": 0.5}},"
        + "  {\"name\": \"high\", \"epsilon\": 0.5, \"hyperparameters\": {\"score\": 0.9}"
        + (secondCommand == null ? "" : ", \"command\": \"" + secondCommand + "\"")
        + "}]}";
  }

  @Test
  void invocationsGivesTheExactLawOfTheNumberOfRuns() {
    CliRun run = CliRun.of("tune", "invocations", "--epsilon", "0.1", "--epsilon-prime", "0.01",
        "--candidates", "105", "--json");
    assertThat(run.status()).isZero();
    JsonNode j = run.json();
    assertThat(j.get("meanRuns").asDouble()).isCloseTo(10.03, within(0.01));
    assertThat(j.get("stdRuns").asDouble()).isCloseTo(22.0, within(0.1));
    assertThat(j.get("probabilityNoRun").asDouble()).isCloseTo(0.5940527717231548, within(1e-12));
  }

  @Test
  void invocationsRejectsBadInputWithOneLine() {
    for (String[] bad : new String[][] {{"--epsilon-prime", "0"}, {"--epsilon-prime", "-1"}}) {
      CliRun run = CliRun.of("tune", "invocations", "--epsilon", "0.1", bad[0], bad[1], "--candidates", "5");
      assertThat(run.status()).isEqualTo(2);
      assertThat(run.err().strip()).startsWith("tradeoff: --epsilon-prime must be in [").doesNotContain("\n");
    }
    CliRun zero = CliRun.of("tune", "invocations", "--epsilon", "0.1", "--epsilon-prime", "0.01", "--candidates", "0");
    assertThat(zero.status()).isEqualTo(2);
    assertThat(zero.err()).startsWith("tradeoff: --candidates must be in [1, ");
  }

  @Test
  void tuneRunsAlgorithm3AndChargesTheLedger() throws Exception {
    Path ledger = dir.resolve("ledger.db");
    // a private run (secure randomness) is charged exactly its realised ex-post epsilon
    CliRun run = CliRun.of("tune", "--plan", plan(twoCandidates(null)).toString(), "--ledger",
        ledger.toString(), "--budget", "50", "--json");
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode j = run.json();
    assertThat(j.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
    assertThat(j.get("seeded").asBoolean()).isFalse();
    assertThat(j.get("guarantee").get("private").asBoolean()).isTrue();
    double epsilon = j.get("guarantee").get("epsilon").asDouble();
    if (!j.get("chosen").isNull()) {
      assertThat(epsilon).isCloseTo(
          2 * j.get("chosen").get("report").get("epsilon").asDouble() + 5, within(1e-12));
    }
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(1);
      assertThat(LedgerAmounts.json(l.entries().get(0).charged()).get("epsilon")).isEqualTo(epsilon);
    }

    // a seeded run is reproducible, says it is not private, and is never charged to a ledger
    CliRun seeded = CliRun.of("tune", "--plan", dir.resolve("plan.json").toString(), "--seed", "7",
        "--json");
    JsonNode s = seeded.json();
    assertThat(s.get("chosen").get("name").asText()).isEqualTo("high");
    assertThat(s.get("runs").asInt()).isEqualTo(2);
    assertThat(s.get("guarantee").get("epsilon").asDouble()).isCloseTo(6.0, within(1e-12));
    assertThat(s.get("seeded").asBoolean()).isTrue();
    assertThat(s.get("guarantee").get("private").asBoolean()).isFalse();
    CliRun table = CliRun.of("tune", "--plan", dir.resolve("plan.json").toString(), "--seed", "7");
    assertThat(table.status()).isZero();
    assertThat(table.out()).contains("chosen       high (score 0.9)").contains("NOT private");
    CliRun charged = CliRun.of("tune", "--plan", dir.resolve("plan.json").toString(), "--ledger",
        ledger.toString(), "--seed", "7");
    assertThat(charged.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(charged.err().strip()).startsWith("tradeoff: --seed makes the run reproducible and NOT private");
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(1);
    }
  }

  @Test
  void anEpsilonDeltaLedgerAdmitsTuningByItsExPostFilterAndRecordsTheRealisedEpsilon()
      throws Exception {
    Path ledger = dir.resolve("ed.db");
    CliRun create = CliRun.of("ledger", "create", "--ledger", ledger.toString(), "--budget",
        "40,1e-5", "--filters", "rdp:0.5,expost@16:0.5");
    assertThat(create.status()).as(create.err()).isZero();
    double before;
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      before = l.exPostRemaining().epsilon(0);
    }
    CliRun run = CliRun.of("tune", "--plan", plan(twoCandidates(null)).toString(), "--ledger",
        ledger.toString(), "--json");
    assertThat(run.status()).as(run.err()).isZero();
    double epsilon = run.json().get("guarantee").get("epsilon").asDouble();
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      var record = l.history().get(0);
      assertThat(record.description().filter()).isEqualTo(dev.tradeoff.ledger.FilterKind.EXPOST);
      // worst case 2 * 0.5 + 5 = 6 reserved; the realised epsilon~ (Lemma 7: the same value at
      // order 16) committed
      assertThat(record.entry().reserved()).isEqualTo(RenyiDp.ofOrder(16, 6.0));
      assertThat(record.entry().charged()).isEqualTo(RenyiDp.ofOrder(16, epsilon));
      assertThat(l.exPostRemaining().epsilon(0)).isCloseTo(before - epsilon, within(1e-9));
      assertThat(run.json().get("remaining").get("epsilons").get(0).asDouble())
          .isCloseTo(before - epsilon, within(1e-9));
    }
  }

  @Test
  void failingCandidatesGiveOneLineAndLeaveTheLedgerUnchanged() throws Exception {
    String[][] cases = {
      {"exit 3", "exited with status 3"},
      {"echo hello", "must print one JSON line"},
      {"echo '{\\\"score\\\": 1, \\\"epsilon\\\": NaN}'", "reported epsilon NaN"},
      {"echo '{\\\"score\\\": 1, \\\"epsilon\\\": -0.5}'", "reported epsilon -0.5"},
      {"echo '{\\\"score\\\": 1, \\\"epsilon\\\": 0.7}'", "above its declared"},
      {"sleep 30", "timed out after 1 s"},
    };
    Path ledger = dir.resolve("ledger.db");
    for (String[] c : cases) {
      // both candidates fail, and epsilon' = 30 drops one with probability e^-30: one of them runs
      String failing = "{\"epsilonPrime\": 30, \"timeoutSeconds\": 1, \"command\": \"" + c[0]
          + "\", \"candidates\": ["
          + "  {\"name\": \"low\", \"epsilon\": 0.25, \"hyperparameters\": {\"score\": 0.5}},"
          + "  {\"name\": \"high\", \"epsilon\": 0.5, \"hyperparameters\": {\"score\": 0.9}}]}";
      Path p = plan(failing);
      CliRun run = CliRun.of("tune", "--plan", p.toString(), "--ledger", ledger.toString(),
          "--budget", "50", "--json");
      assertThat(run.status()).as(c[0]).isEqualTo(2);
      assertThat(run.err().strip()).startsWith("tradeoff: candidate '").contains(c[1]).doesNotContain("\n");
      try (SqliteLedger l = SqliteLedger.open(ledger)) {
        assertThat(l.entries()).as(c[0]).isEmpty();
      }
    }
  }

  @Test
  void badPlansAndRefusedBudgets() throws Exception {
    CliRun empty = CliRun.of("tune", "--plan", plan("{\"epsilonPrime\": 0.1, \"candidates\": []}").toString());
    assertThat(empty.status()).isEqualTo(2);
    assertThat(empty.err()).isEqualTo("tradeoff: candidates must be a non-empty list, but was []" + System.lineSeparator());
    CliRun noPrime = CliRun.of("tune", "--plan", plan(twoCandidates(null).replace("\"epsilonPrime\": 5", "\"epsilonPrime\": 0")).toString());
    assertThat(noPrime.status()).isEqualTo(2);
    assertThat(noPrime.err()).startsWith("tradeoff: epsilonPrime must be > 0");
    Path ledger = dir.resolve("small.db");
    CliRun refused = CliRun.of("tune", "--plan", plan(twoCandidates(null)).toString(), "--ledger",
        ledger.toString(), "--budget", "1");
    assertThat(refused.status()).isEqualTo(Failures.BUDGET_EXCEEDED);
    assertThat(refused.err()).startsWith("tradeoff: privacy budget exceeded");
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).isEmpty();
    }
  }

  @Test
  void renyiPlansUseTheorem13() throws Exception {
    String json = "{\"epsilonPrime\": 5, \"alpha\": 8,"
        + " \"candidates\": [{\"name\": \"rdp\", \"rdp\": {\"orders\": [8], \"epsilons\": [0.5]},"
        + " \"command\": \"echo '{\\\"score\\\": 1, \\\"rdp\\\": {\\\"orders\\\": [8], \\\"epsilons\\\": [0.4]}}'\"}]}";
    CliRun run = CliRun.of("tune", "--plan", plan(json).toString(), "--seed", "3", "--json");
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode g = run.json().get("guarantee");
    assertThat(g.get("alpha").asDouble()).isEqualTo(8);
    assertThat(g.get("kind").asText()).contains("Theorem 13");
  }

  @Test
  void reproduceExpostWritesFigure1AndTable1() {
    Path out = dir.resolve("expost");
    CliRun run = CliRun.of("reproduce", "expost", "--out", out.toString(), "--repetitions", "1", "--datasets", "1");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("d = 105 copies");
    assertThat(out.resolve("figure1.png")).exists();
    assertThat(out.resolve("figure1.csv")).exists();
    assertThat(out.resolve("table1.md")).exists();
    assertThat(run.out()).contains("| S8000 | DOUBLING |");
  }
}
