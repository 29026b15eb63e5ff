package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelManifest;
import dev.tradeoff.beam.runner.BeamRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The labelling job on a real Spark standalone cluster (a master and a worker, each its own JVM
 * on loopback, whose executor is a JVM the worker starts) gives the DirectRunner's labels and
 * manifest for the same seed; {@code down} stops exactly the JVMs {@code up} started and the
 * executors they started.
 */
class SparkClusterLabelTest {

  @TempDir Path dir;

  @Test
  void labelsOnTheClusterEqualTheDirectRunnersForTheSameSeed() throws Exception {
    LabelManifest direct = LabelRuns.direct(dir);

    Path state = dir.resolve("cluster");
    LocalCluster cluster = SparkStandaloneCluster.up(state, 1,
        System.getProperty("java.class.path"), Duration.ofMinutes(10));
    // the worker's children, sampled while the job runs: the executors it launches
    Set<ProcessHandle> executors = ConcurrentHashMap.newKeySet();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    LabelManifest spark;
    try {
      ProcessHandle worker = ProcessHandle.of(cluster.processes().get(1).pid()).orElseThrow();
      sampler.scheduleWithFixedDelay(() -> worker.children().forEach(executors::add), 0, 100,
          TimeUnit.MILLISECONDS);
      assertThat(cluster.runner()).isEqualTo(BeamRunner.SPARK);
      assertThat(cluster.master()).matches("spark://127\\.0\\.0\\.1:\\d+");
      assertThat(cluster.processes()).extracting(ClusterProcess::role)
          .containsExactly("master", "worker-0");
      assertThat(cluster.processes().stream().map(ClusterProcess::pid).distinct()).hasSize(2);
      assertThat(LocalCluster.read(state)).contains(cluster);
      LocalCluster.requireReachable(cluster.master());
      String stage = Path.of(LabelJob.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString();
      spark = LabelJob.run(LabelJob.plan(LabelRuns.request(dir, dir.resolve("spark"))),
          new LabelJob.RunInfo(BeamRunner.SPARK.remoteOptions(cluster.master(), 2,
              List.of(stage)), "spark", cluster.master(), List.of("test")), null);
    } finally {
      sampler.shutdownNow();
      LocalCluster.down(state);
    }
    for (ClusterProcess p : cluster.processes()) {
      assertThat(p.alive()).as("%s stopped", p.role()).isFalse();
    }
    assertThat(executors).as("the worker launched its executor as a JVM").isNotEmpty();
    for (ProcessHandle h : executors) {
      assertThat(h.isAlive()).as("executor %s stopped", h.pid()).isFalse();
    }
    assertThat(LocalCluster.read(state)).isEmpty();
    assertThatThrownBy(() -> LocalCluster.requireReachable(cluster.master()))
        .hasMessageContaining("must be reachable");

    // each executor's standard error is in the worker's work directory (docs/beam.md, Clusters)
    try (Stream<Path> files = Files.walk(state.resolve("work"))) {
      assertThat(files.filter(f -> f.getFileName().toString().equals("stderr")).count())
          .isPositive();
    }
    Map<String, String> labels = LabelRuns.labels(dir.resolve("direct"));
    assertThat(labels).hasSize(60);
    assertThat(LabelRuns.labels(dir.resolve("spark"))).isEqualTo(labels);
    assertThat(spark.master()).isEqualTo(cluster.master());
    assertThat(spark.runner()).isEqualTo("spark");
    assertThat(spark.guarantee()).isEqualTo(direct.guarantee());
    assertThat(spark.bounds()).isEqualTo(direct.bounds());
    assertThat(spark.derivation()).isEqualTo(direct.derivation());
    assertThat(spark.counts()).isEqualTo(direct.counts());
  }
}
