package dev.tradeoff.beam.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectFlinkEquivalenceTest {

  @TempDir Path tmp;

  @Test
  void seededPipelineGivesIdenticalResultsOnDirectAndEmbeddedFlinkRunners() {
    List<String> direct = SamePipeline.run(BeamRunner.DIRECT, 99L, tmp.resolve("direct"));
    List<String> flink = SamePipeline.run(BeamRunner.FLINK, 99L, tmp.resolve("flink"));
    assertThat(direct).hasSize(5 + 5 + 2 * SamePipeline.QUERIES
        + 2 * SamePipeline.PATE_QUERIES + 1);
    assertThat(flink).isEqualTo(direct);
  }
}
