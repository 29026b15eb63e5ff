package dev.tradeoff.cli.label;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.cli.io.Failures;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PredictCommandTest {

  @TempDir Path tmp;

  @Test
  void quickRunOnTheShippedSubsetPrintsBothTablesAndWritesTheReport() throws IOException {
    Path report = tmp.resolve("report");
    CliRun r = CliRun.of("predict", "--queries", "20,50", "--repeats", "3", "--seed", "7",
        "--report", report.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("Table 1", "Table 2", "GNMax", "DaRRM gamma_Sub",
        "DaRRM gamma_opt", "Each DP-SGD teacher: (epsilon, Delta) = (0.08");
    assertThat(r.out()).contains("Randomness: seeded(7): reproducible, NOT private")
        .contains("K = 11 teachers, m = 3" + System.lineSeparator());
    assertThat(report.resolve("report.html")).exists();
    for (String png : dev.tradeoff.experiments.predict.PredictReport.charts()) {
      byte[] head = Files.readAllBytes(report.resolve(png));
      assertThat(head).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }
  }

  @Test
  void jsonRunReportsAccuracyForEveryAggregatorAndQ() throws IOException {
    CliRun r = CliRun.of("predict", "--queries", "20", "--repeats", "2", "--seed", "3", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json.get("accuracy")).hasSize(3);
    for (JsonNode a : json.get("accuracy")) {
      assertThat(a.get("meanAccuracy").asDouble()).isBetween(0.0, 1.0);
    }
    // Table 2 at Q = 20: general composition of the per-query (m eps, delta) with delta' = 1e-4.
    JsonNode p = json.get("privacy").get(0);
    assertThat(p.get("totalGeneral").get("delta").asDouble()).isGreaterThan(20 * 2.99e-4);
    assertThat(p.get("totalAccountant").get("epsilon").asDouble())
        .isLessThanOrEqualTo(p.get("totalGeneral").get("epsilon").asDouble());
  }

  @Test
  void atEqualPrivacyOptimisedDarrmBeatsSubsamplingWhichBeatsGnmax() throws IOException {
    // [DaRRM24, Section 6.2] (Table 1), on the shipped Fashion-MNIST 5-vs-8 subset, seed 1.
    CliRun r = CliRun.of("predict", "--seed", "1", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    for (int q : new int[] {20, 50, 100}) {
      double gnmax = mean(json, q, "GNMax");
      double sub = mean(json, q, "DaRRM gamma_Sub");
      double opt = mean(json, q, "DaRRM gamma_opt");
      assertThat(opt).as("Q=%d", q).isGreaterThanOrEqualTo(sub);
      assertThat(sub).as("Q=%d", q).isGreaterThan(gnmax);
    }
  }

  private static double mean(JsonNode json, int queries, String aggregator) {
    for (JsonNode a : json.get("accuracy")) {
      if (a.get("queries").asInt() == queries && a.get("aggregator").asText().equals(aggregator)) {
        return a.get("meanAccuracy").asDouble();
      }
    }
    throw new AssertionError("no " + aggregator + " at Q=" + queries);
  }

  @Test
  void missingDatasetDirectoryIsOneLineAndStatusTwo() {
    CliRun r = CliRun.of("predict", "--data", tmp.resolve("nowhere").toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("tradeoff: data must be").doesNotContain("\n");
  }

  @Test
  void wrongIdxMagicIsOneLineAndStatusTwo() throws IOException {
    Path dir = tmp.resolve("idx");
    Files.createDirectories(dir);
    for (String name : new String[] {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
        "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"}) {
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
        out.write(new byte[] {0, 0, 0x0b, 0x07, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0});
      }
    }
    CliRun r = CliRun.of("predict", "--data", dir.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("tradeoff: ").containsIgnoringCase("magic")
        .doesNotContain("\n");
  }

  @Test
  void classNotInTheDataIsOneLineAndStatusTwo() {
    CliRun r = CliRun.of("predict", "--classes", "3,8");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("tradeoff: ").contains("3").doesNotContain("\n");
  }

  @Test
  void tooManyTeachersIsOneLineAndStatusTwo() {
    CliRun r = CliRun.of("predict", "--teachers", "100001");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip())
        .startsWith("tradeoff: --teachers must be in [1, 1001], but was 100001")
        .doesNotContain("\n");
  }

  /**
   * The experiment's records are the one check of its values: a refusal names the flag, is one
   * line with status 2, and comes before any data is read or report written.
   */
  @Test
  void eachExperimentValueIsRefusedByItsRecordNamingTheFlag(@TempDir Path dir) {
    Path report = dir.resolve("report");
    String[][] cases = {
        {"--teachers", "4", "must be odd"},
        {"--m", "20", "must be in [1, 11] (the privacy allowance"},
        {"--sigma", "0.1", "must be in [0.3, 10000] (a DP-SGD noise multiplier"},
        {"--clip", "NaN", "must be in [1e-6, 1e6]"},
        {"--epochs", "0", "must be in [0.01, 10000]"},
        {"--queries", "20,0", "must be in [1, 1000000], but was 0"},
        {"--repeats", "0", "must be in [1, 10000], but was 0"},
    };
    for (String[] c : cases) {
      CliRun r = CliRun.of("predict", c[0], c[1], "--report", report.toString());
      assertThat(r.status()).as(c[0]).isEqualTo(2);
      assertThat(r.err().strip()).as(c[0]).startsWith("tradeoff: " + c[0] + " " + c[2])
          .doesNotContain("\n");
      assertThat(r.out()).isEmpty();
      assertThat(report).doesNotExist();
    }
  }

  @Test
  void runnerMissingFromTheClassPathIsOneLineAndStatusTwo() {
    // The default jar carries only the DirectRunner (Spark is optional in tradeoff-beam).
    CliRun r = CliRun.of("predict", "--runner", "spark");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("tradeoff: runner spark is not on the class path")
        .contains("-Pcluster-runners").doesNotContain("\n");
  }

  @Test
  void budgetTooSmallIsRefusedBeforeTraining() {
    CliRun r = CliRun.of("predict", "--queries", "100", "--budget", "1,0.1", "--seed", "1");
    assertThat(r.status()).isEqualTo(Failures.BUDGET_EXCEEDED);
    assertThat(r.err()).contains("privacy budget exceeded", "only ApproxDp[epsilon=1.0, delta=0.1]")
        .doesNotContain("training");
  }
}
