package dev.tradeoff.beam.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerEquivalenceTest {

  @TempDir Path tmp;

  @Test
  void seededPipelineGivesIdenticalResultsOnDirectAndSparkRunners() {
    List<String> direct = SamePipeline.run(BeamRunner.DIRECT, 20240611L, tmp.resolve("direct"));
    List<String> spark = SamePipeline.run(BeamRunner.SPARK, 20240611L, tmp.resolve("spark"));
    assertThat(direct).hasSize(5 + 5 + 2 * SamePipeline.QUERIES);
    assertThat(spark).isEqualTo(direct);
  }

  @Test
  void seededPipelineGivesIdenticalResultsOnDirectAndFlinkRunners() {
    List<String> direct = SamePipeline.run(BeamRunner.DIRECT, 99L, tmp.resolve("direct"));
    List<String> flink = SamePipeline.run(BeamRunner.FLINK, 99L, tmp.resolve("flink"));
    assertThat(flink).isEqualTo(direct);
  }

  @Test
  void differentSeedsGiveDifferentNoise() {
    List<String> a = SamePipeline.run(BeamRunner.DIRECT, 1L, tmp.resolve("a"));
    List<String> b = SamePipeline.run(BeamRunner.DIRECT, 2L, tmp.resolve("b"));
    assertThat(a).hasSameSizeAs(b).isNotEqualTo(b);
  }
}
