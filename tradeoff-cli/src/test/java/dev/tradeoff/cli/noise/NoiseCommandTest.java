package dev.tradeoff.cli.noise;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class NoiseCommandTest {

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
  void gaussianNoiseAsJsonReportsTheGuaranteeAndCountOutputs() throws Exception {
    int status =
        run("noise", "--mechanism", "gaussian:epsilon=1,delta=1e-5", "--value", "42", "--count", "5", "--json");
    assertThat(status).isZero();
    JsonNode doc = new ObjectMapper().readTree(out.toString());
    assertThat(doc.get("guarantee").get("type").asText()).isEqualTo("approx");
    assertThat(doc.get("guarantee").get("epsilon").asDouble()).isEqualTo(1.0);
    assertThat(doc.get("guarantee").get("delta").asDouble()).isEqualTo(1e-5);
    assertThat(doc.get("randomness").asText()).isEqualTo("secure");
    assertThat(doc.get("outputs")).hasSize(5);
    for (JsonNode o : doc.get("outputs")) {
      assertThat(o.asDouble()).isBetween(42 - 60.0, 42 + 60.0); // σ ≈ 3.73: 16σ
    }
  }

  @Test
  void seededRunsAreReproducibleAndSaySoInTheTable() {
    assertThat(run("noise", "--mechanism", "laplace:epsilon=0.5", "--value", "10", "--seed", "7", "--count", "3"))
        .isZero();
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("noise", "--mechanism", "laplace:epsilon=0.5", "--value", "10", "--seed", "7", "--count", "3");
    assertThat(out.toString()).isEqualTo(first);
    assertThat(first).contains("guarantee    0.5-DP").contains("seeded(7), NOT private");
  }

  @Test
  void discreteMechanismsReleaseIntegers() throws Exception {
    assertThat(run("noise", "--mechanism", "discrete-laplace:epsilon=1", "--value", "3", "--count", "20", "--json"))
        .isZero();
    for (JsonNode o : new ObjectMapper().readTree(out.toString()).get("outputs")) {
      assertThat(o.isIntegralNumber()).isTrue();
    }
    out.getBuffer().setLength(0);
    assertThat(run("noise", "--mechanism", "discrete-gaussian:rho=0.5", "--value", "3", "--json")).isZero();
    JsonNode doc = new ObjectMapper().readTree(out.toString());
    assertThat(doc.get("guarantee").get("rho").asDouble()).isLessThanOrEqualTo(0.5);
  }

  @Test
  void badInputIsOneLineOnStderrWithStatusTwo() {
    assertThat(run("noise", "--mechanism", "laplace:epsilon=-1", "--value", "1")).isEqualTo(2);
    assertThat(err.toString().trim()).startsWith("tradeoff: --mechanism laplace:epsilon must be in [").endsWith("but was -1.0");
    err.getBuffer().setLength(0);
    assertThat(run("noise", "--mechanism", "discrete-laplace:epsilon=1", "--value", "1.5")).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo("tradeoff: --value must be an integer for a discrete mechanism, but was 1.5");
    err.getBuffer().setLength(0);
    assertThat(run("noise", "--mechanism", "cauchy:epsilon=1", "--value", "1")).isEqualTo(2);
    assertThat(err.toString()).startsWith("tradeoff: --mechanism must be one of laplace:epsilon=E");
    err.getBuffer().setLength(0);
    assertThat(run("noise", "--mechanism", "gaussian:epsilon=1", "--value", "1")).isEqualTo(2);
    assertThat(err.toString()).contains("gaussian spec needs delta=VALUE");
    err.getBuffer().setLength(0);
    assertThat(run("noise", "--mechanism", "laplace:epsilon=1", "--value", "1", "--count", "0")).isEqualTo(2);
    assertThat(err.toString().trim()).isEqualTo("tradeoff: --count must be in [1, 1000000], but was 0");
  }
}
