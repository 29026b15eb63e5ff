package dev.tradeoff.cli.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShuffleCommandTest {

  @TempDir Path dir;

  @Test
  void analyzeJsonHasThePublicContract() throws Exception {
    CliRun r = CliRun.of("shuffle", "analyze", "--users", "100", "--lambda", "58", "--json");
    assertThat(r.status()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json.at("/paper/mu").asDouble()).isBetween(0.47, 0.49);
    assertThat(json.at("/paper/validLowerBound").asBoolean()).isTrue();
    assertThat(json.at("/paper/tradeoff").size()).isEqualTo(101);
    assertThat(json.at("/exact/mu").asDouble()).isBetween(0.1, 0.12);
    assertThat(json.at("/exact/epsilon").asDouble()).isBetween(0.3, 0.5);
    assertThat(json.at("/exact/delta").asDouble()).isEqualTo(1e-6);
    assertThat(json.at("/exact/tradeoff/0/0").asDouble()).isZero();
    assertThat(json.at("/exact/tradeoff/0/1").asDouble()).isEqualTo(1.0);
    assertThat(json.at("/cheu").has("epsilon")).isTrue();
    assertThat(json.at("/localEpsilon").asDouble()).isEqualTo(Math.log(142.0 / 58));
  }

  @Test
  void analyzeFlagsAnInvalidPaperCurveAndReportsTheExactGuarantee() throws Exception {
    CliRun r = CliRun.of("shuffle", "analyze", "--users", "100", "--lambda", "10", "--delta", "1e-3",
        "--json");
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json.at("/paper/validLowerBound").asBoolean()).isFalse();
    assertThat(json.at("/guarantee/source").asText()).isEqualTo("exact");
    CliRun table = CliRun.of("shuffle", "analyze", "--users", "100", "--lambda", "10");
    assertThat(table.out()).contains("NOT confirmed");
  }

  @Test
  void badParametersExitTwoWithOneLine() {
    String[][] cases = {
      {"shuffle", "analyze", "--users", "100", "--lambda", "100"},
      {"shuffle", "analyze", "--users", "100", "--lambda", "0"},
      {"shuffle", "analyze", "--users", "1", "--lambda", "0.5"},
      {"shuffle", "analyze", "--users", "100", "--lambda", "58", "--bits", "0"},
      {"shuffle", "analyze", "--users", "100", "--lambda", "58", "--delta", "1"},
      {"shuffle", "analyze", "--users", "many", "--lambda", "58"},
    };
    for (String[] args : cases) {
      CliRun r = CliRun.of(args);
      assertThat(r.status()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.err()).startsWith("tradeoff: ");
      assertThat(r.err().strip().lines().count()).isEqualTo(1);
    }
  }

  @Test
  void sumIsReproducibleWithASeedAndCloseToTheTruth() throws Exception {
    Path csv = dir.resolve("values.csv");
    StringBuilder s = new StringBuilder("id,x\n");
    double truth = 0;
    for (int i = 0; i < 200; i++) {
      double x = (i % 10) / 10.0;
      truth += x;
      s.append(i).append(',').append(x).append('\n');
    }
    Files.writeString(csv, s.toString());
    String[] args = {"shuffle", "sum", "--input", csv.toString(), "--column", "x", "--lambda", "58",
        "--bits", "10", "--seed", "42", "--json"};
    CliRun a = CliRun.of(args);
    CliRun b = CliRun.of(args);
    assertThat(a.status()).isZero();
    assertThat(a.out()).isEqualTo(b.out());
    JsonNode json = new ObjectMapper().readTree(a.out());
    double se = json.at("/standardError").asDouble();
    assertThat(json.at("/estimate").asDouble()).isBetween(truth - 5 * se, truth + 5 * se);
    assertThat(json.at("/randomness").asText()).isEqualTo("seeded");
  }

  /** RFC 4180 input: a BOM, CRLF, a quoted header cell with a comma, a quoted value. */
  @Test
  void sumReadsQuotedCellsBomAndCrlf() throws Exception {
    Path csv = dir.resolve("quoted.csv");
    Files.writeString(csv, "\uFEFF\"user, id\",x\r\n\"a,1\",0.5\r\nb,\"0.25\"\r\n\r\n");
    CliRun r = CliRun.of("shuffle", "sum", "--input", csv.toString(), "--column", "x",
        "--lambda", "1", "--bits", "10", "--seed", "1", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.json().at("/users").asInt()).isEqualTo(2);
    Path bad = Files.writeString(dir.resolve("open.csv"), "x\n0.5\n\"0.1\n");
    r = CliRun.of("shuffle", "sum", "--input", bad.toString(), "--column", "x", "--lambda", "1");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("tradeoff: --input " + bad
        + ":3, column 1: a quoted cell is never closed");
  }

  @Test
  void sumRejectsNonNumericAndOutOfRangeCellsAndUnknownColumns() throws Exception {
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "x\n0.5\nabc\n0.1\n");
    CliRun r = CliRun.of("shuffle", "sum", "--input", bad.toString(), "--column", "x", "--lambda", "1");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo(
        "tradeoff: bad.csv line 3, column x must be a number, but was 'abc'");
    Path range = dir.resolve("range.csv");
    Files.writeString(range, "x\n0.5\n1.5\n0.1\n");
    r = CliRun.of("shuffle", "sum", "--input", range.toString(), "--column", "x", "--lambda", "1");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo(
        "tradeoff: range.csv line 3, column x must be in [0, 1], but was 1.5");
    r = CliRun.of("shuffle", "sum", "--input", range.toString(), "--column", "y", "--lambda", "1");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("column must be one of [x]");
  }

  @Test
  void plotAndReproduceWritePngs() throws Exception {
    Path png = dir.resolve("fig.png");
    CliRun r = CliRun.of("shuffle", "plot", "--users", "100", "--lambda", "58", "--out", png.toString());
    assertThat(r.status()).isZero();
    assertThat(Files.readAllBytes(png)).startsWith(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    Path out = dir.resolve("repro");
    r = CliRun.of("reproduce", "shuffle", "--out", out.toString());
    assertThat(r.status()).isZero();
    for (String f : new String[] {"figure1a.png", "figure1b.png", "figure1c.png",
        "figure1d.png"}) {
      assertThat(Files.size(out.resolve(f))).isGreaterThan(1000);
    }
    assertThat(r.out()).contains("guarantee:");
  }
}
