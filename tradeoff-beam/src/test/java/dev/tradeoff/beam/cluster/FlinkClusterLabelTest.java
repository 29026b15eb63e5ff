package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.LabelData;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.label.LabelPrivacy;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The labelling job on a real Flink session cluster (a JobManager and two TaskManagers, each its
 * own JVM on loopback) gives the DirectRunner's labels for the same seed; {@code down} stops
 * exactly the JVMs {@code up} started.
 */
class FlinkClusterLabelTest {

  @TempDir Path dir;

  static Map<String, String> labels(Path out) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("labels-")).toList()) {
        List<String> lines = Files.readAllLines(f);
        for (String line : lines.subList(1, lines.size())) {
          String[] c = line.split(",");
          assertThat(m.put(c[0], c[1])).isNull();
        }
      }
    }
    return m;
  }

  LabelJob.Request request(Path out) {
    return new LabelJob.Request(dir.resolve("train").toString(), dir.resolve("q.csv").toString(),
        out, new LabelPrivacy.Target(new ApproxDp(30, 1e-5), Aggregator.DARRM_SUB, 5,
        OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(List.of("cat", "dog")),
        CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(42), false);
  }

  @Test
  void labelsOnTheClusterEqualTheDirectRunnersForTheSameSeed() throws Exception {
    LabelData.train(dir.resolve("train"), 500, 2, 2, 8);
    LabelData.queries(dir.resolve("q.csv"), 60, 2, 9);
    LabelJob.run(LabelJob.plan(request(dir.resolve("direct"))), new LabelJob.RunInfo(
        BeamRunner.DIRECT.options(2), "direct", null, List.of("test")), null);

    Path state = dir.resolve("cluster");
    FlinkSessionCluster.Cluster cluster = FlinkSessionCluster.up(state, 2,
        System.getProperty("java.class.path"), FlinkSessionCluster.Timeouts.DEFAULT);
    try {
      assertThat(cluster.processes()).hasSize(3);
      assertThat(cluster.processes().stream().map(p -> p.pid()).distinct()).hasSize(3);
      FlinkSessionCluster.requireReachable(cluster.master());
      String stage = Path.of(LabelJob.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString();
      LabelManifest manifest = LabelJob.run(LabelJob.plan(request(dir.resolve("flink"))),
          new LabelJob.RunInfo(BeamRunner.FLINK.remoteOptions(cluster.master(), 2,
              List.of(stage)), "flink", cluster.master(), List.of("test")),
          null);
      assertThat(manifest.master()).isEqualTo(cluster.master());
    } finally {
      FlinkSessionCluster.down(state);
    }
    for (FlinkSessionCluster.Started p : cluster.processes()) {
      assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false))
          .as("%s stopped", p.role()).isFalse();
    }
    assertThat(FlinkSessionCluster.read(state)).isEmpty();
    Map<String, String> direct = labels(dir.resolve("direct"));
    assertThat(direct).hasSize(60);
    assertThat(labels(dir.resolve("flink"))).isEqualTo(direct);
    assertThatThrownBy(() -> FlinkSessionCluster.requireReachable(cluster.master()))
        .hasMessageContaining("must be reachable");
  }
}
