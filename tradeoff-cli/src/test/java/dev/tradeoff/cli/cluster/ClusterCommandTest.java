package dev.tradeoff.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster up} refuses an unknown engine and a Flink-only flag for Spark in one line before
 * it starts or writes anything; {@code cluster down} stops what the state file records, whichever
 * the engine (the clusters themselves are started by the tests of {@code dev.tradeoff.beam.cluster}).
 */
class ClusterCommandTest {

  @TempDir Path dir;

  @Test
  void upRefusesAnUnknownEngineAndAFlinkOnlyFlagForSpark() {
    Path state = dir.resolve("state");
    CliRun engine = CliRun.of("cluster", "up", "--engine", "direct", "--state-dir",
        state.toString());
    assertThat(engine.status()).isEqualTo(2);
    assertThat(engine.err().strip())
        .isEqualTo("tradeoff: --engine must be flink or spark, but was direct");
    CliRun jobTimeout = CliRun.of("cluster", "up", "--engine", "spark", "--job-timeout", "60",
        "--state-dir", state.toString());
    assertThat(jobTimeout.status()).isEqualTo(2);
    assertThat(jobTimeout.err().strip()).isEqualTo("tradeoff: --job-timeout applies to --engine "
        + "flink only, but the engine was spark");
    assertThat(engine.out()).isEmpty();
    assertThat(jobTimeout.out()).isEmpty();
    assertThat(state).doesNotExist();
  }

  @Test
  void downStopsTheRecordedSparkClusterAndRemovesItsState() throws Exception {
    Path state = Files.createDirectories(dir.resolve("state"));
    // a recorded cluster whose processes have exited: pid 1 with a start instant it never had
    Files.writeString(state.resolve("cluster.json"), "{\"runner\":\"spark\",\"master\":"
        + "\"spark://127.0.0.1:7077\",\"workers\":1,\"processes\":[{\"role\":\"master\",\"pid\":1,"
        + "\"startInstant\":\"1970-01-01T00:00:00Z\"},{\"role\":\"worker-0\",\"pid\":1,"
        + "\"startInstant\":\"1970-01-01T00:00:00Z\"}]}");
    CliRun down = CliRun.of("cluster", "down", "--state-dir", state.toString());
    assertThat(down.status()).as(down.err()).isZero();
    assertThat(down.out().strip())
        .isEqualTo("stopped the spark cluster at spark://127.0.0.1:7077 (2 processes)");
    assertThat(state.resolve("cluster.json")).doesNotExist();
    assertThat(ProcessHandle.of(1).map(ProcessHandle::isAlive)).as("pid 1 left alone")
        .hasValue(true);
  }
}
