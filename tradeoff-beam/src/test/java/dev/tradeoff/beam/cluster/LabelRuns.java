package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;

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

/** The seeded labelling run the cluster tests submit, and the labels it wrote. */
final class LabelRuns {

  private LabelRuns() {}

  /**
   * Writes the inputs (500 training rows, 60 queries) into {@code dir} and labels them on the
   * DirectRunner into {@code dir/direct}: what a cluster's run is compared with.
   */
  static LabelManifest direct(Path dir) throws IOException {
    LabelData.train(dir.resolve("train"), 500, 2, 2, 8);
    LabelData.queries(dir.resolve("q.csv"), 60, 2, 9);
    return LabelJob.run(LabelJob.plan(request(dir, dir.resolve("direct"))), new LabelJob.RunInfo(
        BeamRunner.DIRECT.options(2), "direct", null, List.of("test")), null);
  }

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

  static LabelJob.Request request(Path dir, Path out) {
    return new LabelJob.Request(dir.resolve("train").toString(), dir.resolve("q.csv").toString(),
        out, new LabelPrivacy.Target(new ApproxDp(30, 1e-5), Aggregator.DARRM_SUB, 5,
        OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(List.of("cat", "dog")),
        CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(42), false);
  }
}
