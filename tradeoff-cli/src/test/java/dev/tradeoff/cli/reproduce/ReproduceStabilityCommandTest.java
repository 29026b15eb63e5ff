package dev.tradeoff.cli.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReproduceStabilityCommandTest {

  @TempDir Path dir;

  @Test
  void printsTheComparisonTableAndWritesCsvAndPngs() throws Exception {
    CliRun run = CliRun.of("reproduce", "stability", "--seeds", "3", "--n", "20000", "--m",
        "5000", "--out", dir.toString());
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("STABILITY").contains("ALPHA_SPLIT").contains("DATA_SPLIT")
        .contains("RANDOM").contains("Theorem 6");
    for (String f : new String[] {"stability.csv", "stability-ise.png", "stability-choices.png"}) {
      assertThat(Files.size(dir.resolve(f))).isPositive();
    }
    byte[] png = Files.readAllBytes(dir.resolve("stability-ise.png"));
    assertThat(png[1]).isEqualTo((byte) 'P');
    assertThat(Files.readAllLines(dir.resolve("stability.csv"))).hasSize(1 + 4 + 5);
  }

  @Test
  void jsonCarriesGuaranteesAndChoices() {
    CliRun run = CliRun.of("reproduce", "stability", "--seeds", "2", "--n", "20000", "--m",
        "5000", "--out", dir.toString(), "--json");
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode doc = run.json();
    assertThat(doc.get("methods")).hasSize(4);
    JsonNode stability = doc.get("methods").get(0);
    assertThat(stability.get("method").asText()).isEqualTo("STABILITY");
    assertThat(stability.get("delta").asDouble()).isEqualTo(1e-6);
    assertThat(stability.get("chosen")).hasSize(5);
  }

  @Test
  void settingsOutsideTheoremSixAreOneLineWithStatusTwo() {
    CliRun run = CliRun.of("reproduce", "stability", "--n", "100", "--out", dir.toString());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("tradeoff: ").contains("gamma");
  }
}
