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

  /**
   * --mechanism is converted when parsed: a malformed spec, an unknown name or key, or a value
   * out of its own range is refused with one line naming the flag before any other flag is
   * looked at (here --value, which is required, is missing), and nothing is released.
   */
  @Test
  void aBadMechanismIsRefusedWhenTheArgumentsAreParsed() {
    String[][] cases = {
      {"cauchy:epsilon=1", "tradeoff: --mechanism must be one of laplace:epsilon=E"},
      {"laplace:scale=1", "tradeoff: --mechanism laplace spec accepts keys [epsilon], but got"
          + " 'scale' in 'laplace:scale=1'"},
      {"gaussian:epsilon=1,delta=1", "tradeoff: --mechanism gaussian:delta must be in [1E-300, 1)"
          + " (a privacy delta), but was 1.0"},
      {"discrete-gaussian:sigma=1,rho=1", "tradeoff: --mechanism discrete-gaussian needs exactly"
          + " one of sigma=S or rho=R, but was 'discrete-gaussian:sigma=1,rho=1'"},
      {"discrete-gaussian:rho=0", "tradeoff: --mechanism discrete-gaussian:rho must be in (0, "},
      {"laplace", "tradeoff: --mechanism laplace spec needs epsilon=VALUE, but 'laplace' has none"},
    };
    for (String[] c : cases) {
      CliRun r = CliRun.of("noise", "--mechanism", c[0]);
      assertThat(r.status()).as(r.err()).isEqualTo(2);
      assertThat(r.err().strip()).startsWith(c[1]).doesNotContain("\n");
      assertThat(r.out()).isEmpty();
    }
  }

  /** The rules that join --mechanism with --sensitivity are the request's, checked once. */
  @Test
  void theMechanismAndTheSensitivityAreCheckedTogetherOnce() {
    CliRun tooSmallRho = CliRun.of("noise", "--mechanism", "discrete-gaussian:rho=1e-30",
        "--value", "1", "--sensitivity", "3");
    assertThat(tooSmallRho.status()).isEqualTo(2);
    assertThat(tooSmallRho.err().strip()).startsWith("tradeoff: --mechanism discrete-gaussian:rho"
        + " must be in [4.5E-18, ").endsWith("but was 1.0E-30");
    assertThat(tooSmallRho.out()).isEmpty();
    CliRun hugeScale = CliRun.of("noise", "--mechanism", "laplace:epsilon=1e-6", "--value", "1",
        "--sensitivity", "1e12");
    assertThat(hugeScale.status()).isEqualTo(2);
    assertThat(hugeScale.err().strip()).isEqualTo("tradeoff: --sensitivity / --mechanism"
        + " laplace:epsilon (the noise scale) must be <= 1.0E15, but was 1.0E18");
    CliRun fractionalSensitivity = CliRun.of("noise", "--mechanism", "discrete-gaussian:sigma=2",
        "--value", "1", "--sensitivity", "0.5");
    assertThat(fractionalSensitivity.status()).isEqualTo(2);
    assertThat(fractionalSensitivity.err().strip()).isEqualTo("tradeoff: --sensitivity must be"
        + " an integer for a discrete mechanism, but was 0.5");
    // the same rho is released where the sensitivity allows it
    assertThat(CliRun.of("noise", "--mechanism", "discrete-gaussian:rho=1e-17", "--value", "1",
        "--seed", "1").status()).isZero();
  }
}
