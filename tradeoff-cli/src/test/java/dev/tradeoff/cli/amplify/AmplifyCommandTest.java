package dev.tradeoff.cli.amplify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AmplifyCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Runs through {@link CliRun} and appends what it printed to {@code out} and {@code err}. */
  private int run(String... args) {
    CliRun r = CliRun.of(args);
    out.write(r.out());
    err.write(r.err());
    return r.status();
  }

  @Test
  void bernoulliPrintsTheCertifiedIntervalAsJson() throws Exception {
    int status =
        run("amplify", "bernoulli", "--alpha", "50", "--epsilon", "1.0", "--c", "0.1",
            "--dimension", "1", "--samples", "1", "--json");
    assertThat(status).isZero();
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("amplifiedEpsilonAttained").asDouble()).isBetween(0.773071, 0.7730715);
    assertThat(json.get("upperBound").asDouble()).isGreaterThanOrEqualTo(json.get("amplifiedEpsilonAttained").asDouble());
    assertThat(json.get("lowerBound").asDouble()).isLessThanOrEqualTo(json.get("amplifiedEpsilonAttained").asDouble());
    assertThat(json.get("asymptote").asDouble()).isBetween(2.195074, 2.195075);
    assertThat(json.get("certified").asBoolean()).isTrue();
    assertThat(json.get("gap").asDouble()).isLessThanOrEqualTo(1e-9);
  }

  @Test
  void badInputExitsWithStatusTwoAndOneLine() {
    assertThat(run("amplify", "bernoulli", "--alpha", "1", "--epsilon", "1", "--c", "0.1"))
        .isEqualTo(2);
    assertThat(err.toString().trim()).startsWith("tradeoff: --alpha must be in [1.01, 10000]").endsWith("but was 1.0");
    for (String[] args :
        new String[][] {
          {"--alpha", "5", "--epsilon", "1", "--c", "0.5"},
          {"--alpha", "5", "--epsilon", "0", "--c", "0.1"},
          {"--alpha", "5", "--epsilon", "1", "--c", "0.1", "--dimension", "0"},
          {"--alpha", "5", "--epsilon", "1", "--c", "0.1", "--samples", "0"}
        }) {
      String[] full = new String[args.length + 2];
      full[0] = "amplify";
      full[1] = "bernoulli";
      System.arraycopy(args, 0, full, 2, args.length);
      assertThat(run(full)).isEqualTo(2);
    }
    assertThat(err.toString()).contains("--c must be 0 or in [1.0E-4, 0.5)", "--epsilon must be in [0.001, 1000]",
        "--dimension must be in [1, 1000]", "--samples must be in [1, 1000]");
  }

  @Test
  void plotWritesAPng(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("fig.png");
    int status = run("amplify", "plot", "--alpha", "50", "--c", "0.1", "--dimension", "1,2",
        "--samples", "1", "--max-epsilon", "3", "--out", png.toString());
    assertThat(status).isZero();
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes).hasSizeGreaterThan(1000);
    assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }
}
