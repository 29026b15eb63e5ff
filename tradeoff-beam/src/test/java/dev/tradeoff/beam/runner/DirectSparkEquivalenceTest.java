package dev.tradeoff.beam.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectSparkEquivalenceTest {

  @TempDir Path tmp;

  @Test
  void seededPipelineGivesIdenticalResultsOnDirectAndSparkRunners() {
    List<String> direct = SamePipeline.run(BeamRunner.DIRECT, 20240611L, tmp.resolve("direct"));
    List<String> spark = SamePipeline.run(BeamRunner.SPARK, 20240611L, tmp.resolve("spark"));
    assertThat(direct).hasSize(5 + 5 + 2 * SamePipeline.QUERIES
        + 2 * SamePipeline.PATE_QUERIES + 1);
    assertThat(spark).isEqualTo(direct);
  }
}
