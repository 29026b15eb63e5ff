package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose TaskManager cannot start (its RPC port is taken) fails in one message that names
 * the process, its exit status and the last lines of its log (Flink's own, through a real logging
 * back-end), and leaves nothing running; a retry removes the previous attempt's logs.
 */
class FlinkClusterStartFailureTest {

  @TempDir Path dir;

  @Test
  void aTaskManagerThatCannotStartIsNamedWithItsLogAndNothingIsLeftRunning() throws Exception {
    Path state = dir.resolve("cluster");
    Files.createDirectories(state.resolve("log"));
    Path stale = Files.writeString(state.resolve("log").resolve("taskmanager-5.err"), "old");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      var failure = org.assertj.core.api.Assertions.catchThrowableOfType(
          () -> FlinkSessionCluster.up(state, 1, System.getProperty("java.class.path"),
              new FlinkSessionCluster.Timeouts(Duration.ofMinutes(10), Duration.ofMinutes(1)),
              List.of("taskmanager.rpc.port: " + taken.getLocalPort())),
          ClusterStartException.class);
      assertThat(failure).isNotNull();
      assertThat(failure.getMessage())
          .startsWith("cluster taskmanager-0 exited with status ")
          .contains(state.resolve("log").resolve("taskmanager-0.log") + " says: ")
          .contains("Caused by: java.net.BindException")
          .contains("--timeout")
          .doesNotContain("\n");
      assertThat(Files.readString(state.resolve("log").resolve("taskmanager-0.log")))
          .as("Flink's own log, not a no-operation logger").contains("TaskManager")
          .containsIgnoringCase("port");
      assertThat(failure.started()).hasSize(2);
      for (ClusterProcess p : failure.started()) {
        assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false))
            .as("%s stopped", p.role()).isFalse();
      }
    }
    assertThat(stale).doesNotExist();
    assertThat(LocalCluster.read(state)).isEmpty();
  }

  @Test
  void theJvmsGetTheSimpleLoggingBackEndFirstAndNoNoOperationBinding() {
    String sep = java.io.File.pathSeparator;
    String cp = String.join(sep, "/a/tradeoff.jar", "/m/slf4j-nop-1.7.30.jar", "/m/flink.jar",
        "/m/slf4j-simple-1.7.36.jar");
    assertThat(ClusterJvms.withLogging(cp)).isEqualTo(String.join(sep,
        "/m/slf4j-simple-1.7.36.jar", "/a/tradeoff.jar", "/m/flink.jar"));
  }
}
