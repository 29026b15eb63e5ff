package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.runner.BeamRunner;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The labelling job on a real Flink session cluster (a JobManager and two TaskManagers, each its
 * own JVM on loopback) gives the DirectRunner's labels for the same seed; {@code down} stops
 * exactly the JVMs {@code up} started.
 */
class FlinkClusterLabelTest {

  @TempDir Path dir;

  @Test
  void labelsOnTheClusterEqualTheDirectRunnersForTheSameSeed() throws Exception {
    LabelRuns.direct(dir);

    Path state = dir.resolve("cluster");
    LocalCluster cluster = FlinkSessionCluster.up(state, 2,
        System.getProperty("java.class.path"), FlinkSessionCluster.Timeouts.DEFAULT);
    try {
      assertThat(cluster.processes()).hasSize(3);
      assertThat(cluster.processes().stream().map(p -> p.pid()).distinct()).hasSize(3);
      LocalCluster.requireReachable(cluster.master());
      String stage = Path.of(LabelJob.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString();
      LabelManifest manifest = LabelJob.run(
          LabelJob.plan(LabelRuns.request(dir, dir.resolve("flink"))),
          new LabelJob.RunInfo(BeamRunner.FLINK.remoteOptions(cluster.master(), 2,
              List.of(stage)), "flink", cluster.master(), List.of("test")),
          null);
      assertThat(manifest.master()).isEqualTo(cluster.master());
    } finally {
      LocalCluster.down(state);
    }
    for (ClusterProcess p : cluster.processes()) {
      assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false))
          .as("%s stopped", p.role()).isFalse();
    }
    assertThat(LocalCluster.read(state)).isEmpty();
    Map<String, String> direct = LabelRuns.labels(dir.resolve("direct"));
    assertThat(direct).hasSize(60);
    assertThat(LabelRuns.labels(dir.resolve("flink"))).isEqualTo(direct);
    assertThatThrownBy(() -> LocalCluster.requireReachable(cluster.master()))
        .hasMessageContaining("must be reachable");
  }
}
