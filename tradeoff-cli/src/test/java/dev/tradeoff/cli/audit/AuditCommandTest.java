package dev.tradeoff.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.cli.io.Failures;
import org.junit.jupiter.api.Test;

class AuditCommandTest {

  private static JsonNode json(CliRun run) throws Exception {
    return new ObjectMapper().readTree(run.out());
  }

  @Test
  void correctLaplacePassesWithJsonReport() throws Exception {
    CliRun run =
        CliRun.of("audit", "--mechanism", "laplace:epsilon=1.0", "--samples", "40000", "--seed", "1",
            "--json");

    assertThat(run.status()).isZero();
    JsonNode report = json(run);
    assertThat(report.get("claimedEpsilon").asDouble()).isEqualTo(1.0);
    assertThat(report.get("passed").asBoolean()).isTrue();
    assertThat(report.get("epsilonLowerBound").asDouble()).isBetween(0.7, 1.0);
    assertThat(report.get("confidence").asDouble()).isEqualTo(0.95);
    assertThat(report.get("samplesPerInput").asLong()).isEqualTo(40000);
    assertThat(report.get("seed").asLong()).isEqualTo(1);
  }

  @Test
  void laplaceWithScaleThirtyPercentTooSmallFailsWithStatusOne() throws Exception {
    CliRun run =
        CliRun.of("audit", "--mechanism", "laplace:epsilon=1.0,scale-factor=0.7", "--samples", "40000",
            "--seed", "1", "--json");

    assertThat(run.status()).isEqualTo(AuditCommand.VIOLATION);
    JsonNode report = json(run);
    assertThat(report.get("passed").asBoolean()).isFalse();
    assertThat(report.get("epsilonLowerBound").asDouble()).isGreaterThan(1.0);
  }

  @Test
  void randomizedResponseTableShowsANearTightBound() {
    CliRun run =
        CliRun.of("audit", "--mechanism", "randomized-response:epsilon=2", "--samples", "200000",
            "--seed", "5", "--confidence", "0.99");

    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("claimedEpsilon", "epsilonLowerBound", "passed", "true",
        "0.99");
    String bound =
        run.out().lines().filter(l -> l.startsWith("epsilonLowerBound")).findFirst().orElseThrow();
    assertThat(Double.parseDouble(bound.substring("epsilonLowerBound".length()).trim()))
        .isBetween(1.8, 2.0);
  }

  @Test
  void gaussianIsAuditedAtItsDelta() throws Exception {
    CliRun run =
        CliRun.of("audit", "--mechanism", "gaussian:epsilon=1,delta=1e-3", "--samples", "10000",
            "--seed", "2", "--json");

    assertThat(run.status()).isZero();
    JsonNode report = json(run);
    assertThat(report.get("delta").asDouble()).isEqualTo(1e-3);
    assertThat(report.get("passed").asBoolean()).isTrue();
  }

  @Test
  void kAryRandomizedResponsePasses() throws Exception {
    CliRun run =
        CliRun.of("audit", "--mechanism", "randomized-response:epsilon=1,k=4", "--samples", "20000",
            "--seed", "2", "--json");

    assertThat(run.status()).isZero();
    assertThat(json(run).get("epsilonLowerBound").asDouble()).isBetween(0.5, 1.0);
  }

  @Test
  void sameSeedGivesTheSameReport() {
    String[] args = {"audit", "--mechanism", "randomized-response:epsilon=1", "--samples", "10000",
        "--seed", "3", "--json"};
    assertThat(CliRun.of(args).out()).isEqualTo(CliRun.of(args).out());
  }

  @Test
  void badInputIsOneLineWithStatusTwo() {
    CliRun unknown = CliRun.of("audit", "--mechanism", "cauchy:epsilon=1", "--samples", "100");
    CliRun negative = CliRun.of("audit", "--mechanism", "laplace:epsilon=-1", "--samples", "100");
    CliRun confidence =
        CliRun.of("audit", "--mechanism", "laplace:epsilon=1", "--samples", "100", "--confidence", "1");
    CliRun key = CliRun.of("audit", "--mechanism", "laplace:epsilon=1,sigma=2", "--samples", "100");

    assertThat(unknown.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(unknown.err()).startsWith("tradeoff: --mechanism must be one of laplace");
    assertThat(negative.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(negative.err().trim())
        .startsWith("tradeoff: --mechanism laplace:epsilon must be in [").endsWith("but was -1.0");
    assertThat(confidence.err().trim())
        .startsWith("tradeoff: --confidence must be in (0.5, ").endsWith("but was 1.0");
    assertThat(key.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(key.err()).contains("sigma");
    assertThat(unknown.err().lines()).hasSize(1);
    CliRun delta = CliRun.of("audit", "--mechanism", "gaussian:epsilon=1,delta=1", "--samples", "100");
    assertThat(delta.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(delta.err()).contains("delta");
  }
}
