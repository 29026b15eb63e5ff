package dev.tradeoff.experiments.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.beam.label.LabelPipeline;
import dev.tradeoff.beam.label.LabelShards;
import dev.tradeoff.beam.label.ReadCsvLines;
import dev.tradeoff.beam.label.TeacherPartition;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Accuracy;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.Dataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.PTransform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code predict} is the label job applied to the paper's data: its pipeline is built from the
 * job's composites ({@link LabelPipeline}), its records arrive through {@code TextIO}, and it
 * labels and scores generated data end to end.
 */
class KnowledgeTransferTest {

  @TempDir Path work;

  /**
   * Two well-separated Gaussian clusters in three dimensions, mapped like the shipped data (unit
   * norm with a bias feature).
   */
  private static BinaryTask clusters(int train, int test, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    return new BinaryTask(cluster(train, random).withBiasUnitNorm(1),
        cluster(test, random).withBiasUnitNorm(1));
  }

  private static Dataset cluster(int n, SplittableRandom random) {
    double[][] rows = new double[n][];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i % 2;
      double centre = labels[i] == 1 ? 1 : -1;
      rows[i] = new double[] {centre + 0.3 * random.nextGaussian(),
          centre + 0.3 * random.nextGaussian(), 0.3 * random.nextGaussian()};
    }
    return Dataset.of(rows, labels);
  }

  private static KnowledgeTransfer.Config config(int teachers, List<Integer> queries,
      int repeats) {
    return new KnowledgeTransfer.Config(teachers, 1,
        new KnowledgeTransfer.Training(Double.NaN, 1e-4, 1, 1, 5), queries, repeats,
        BeamRunner.DIRECT, OptionalLong.of(11), Optional.empty());
  }

  @Test
  void thePipelineIsTheLabelJobsTransformsOverPinnedFilesWithoutDataFromTheDriver() throws IOException {
    KnowledgeTransfer.DataFiles files = KnowledgeTransfer.DataFiles.in(work);
    Files.writeString(files.train(), "label,x0\n0,1\n");
    Files.writeString(files.queries(), "id,x0\n20-0-0,1\n");
    Files.writeString(files.test(), "id,x0\n0,1\n");
    Map<Aggregator, PrivateMajority> majorities = new EnumMap<>(Aggregator.class);
    for (Aggregator a : KnowledgeTransfer.TABLE1) {
      majorities.put(a, PrivateMajority.gnmax(new GnMax(10, 2), 2, 1,
          ElementRandomness.seeded(1)));
    }
    KnowledgeTransfer.Setup setup = new KnowledgeTransfer.Setup(files, 1, 3,
        TeacherPartition.seeded(1, 3), null, ElementRandomness.seeded(1), majorities);
    Pipeline pipeline = KnowledgeTransfer.pipeline(BeamRunner.DIRECT.options(1), setup);

    List<Class<?>> composites = new ArrayList<>();
    List<String> creates = new ArrayList<>();
    pipeline.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
      @Override
      public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
        PTransform<?, ?> t = node.getTransform();
        if (t != null) {
          composites.add(t.getClass());
          if (t instanceof Create.Values<?> || t instanceof Create.TimestampedValues<?>) {
            creates.add(node.getFullName());
          }
        }
        return CompositeBehavior.ENTER_TRANSFORM;
      }
    });
    // the job's transforms: K non-private and K DP-SGD teachers; three private majorities and the
    // non-private reference, each labelling and writing its queries
    assertThat(composites).filteredOn(LabelPipeline.Teachers.class::equals).hasSize(2);
    assertThat(composites).filteredOn(LabelShards.class::equals).hasSize(4);
    // the training file and the query files are read in byte ranges of the files the plan pinned
    // (the queries in the record ranges the scan cut, once the teachers are ready); nothing else
    // feeds the pipeline but the pinned files' names, sizes and ranges, the K partition indices
    // (so that every partition is trained) and Beam's own file writing of the shard lists (an
    // empty list of its temporary files)
    assertThat(composites).filteredOn(TextIO.Read.class::isAssignableFrom).isEmpty();
    assertThat(composites).filteredOn(ReadCsvLines.Ranges.class::equals).hasSize(2);
    assertThat(composites).filteredOn(ReadCsvLines.RecordRanges.class::equals).hasSize(4);
    assertThat(creates).allMatch(name -> name.endsWith("Ranges/Files")
        || name.endsWith("Ranges/Ranges")
        || name.endsWith("/EveryPartition") || name.contains("/ListShards/"),
        "pinned file names, partition indices or inside the shard lists' write");
  }

  @Test
  void labelsGeneratedDataEndToEndAndCleansUp() throws IOException {
    BinaryTask task = clusters(220, 120, 5);
    KnowledgeTransfer.Config config = config(5, List.of(10, 30), 2);
    List<String> phases = new ArrayList<>();
    KnowledgeTransfer.Result r = KnowledgeTransfer.run(config, task, phases::add, work);

    assertThat(r.trainSize()).isEqualTo(220);
    assertThat(r.testSize()).isEqualTo(120);
    assertThat(r.nonPrivateMajorityAccuracy()).isGreaterThan(0.95);
    assertThat(r.accuracy()).hasSize(2 * KnowledgeTransfer.TABLE1.size());
    for (Accuracy a : r.accuracy()) {
      assertThat(a.mean()).as("%s", a).isBetween(0.0, 1.0);
      assertThat(a.std()).isGreaterThanOrEqualTo(0);
    }
    // DaRRM at m = 1 over separable data: nearly every label right
    assertThat(PredictReport.accuracy(r, 30, Aggregator.DARRM_OPT).mean()).isGreaterThan(0.8);
    assertThat(phases).anyMatch(p -> p.contains("teachers"));
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("scratch files removed").isEmpty();
    }
  }

  @Test
  void aTeacherWithoutRecordsIsRefusedBeforeThePipeline() throws IOException {
    BinaryTask task = clusters(5, 40, 3);
    assertThatThrownBy(() -> KnowledgeTransfer.run(config(5, List.of(10), 1), task, p -> { },
        work))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("receives none");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("scratch files removed").isEmpty();
    }
  }
}
