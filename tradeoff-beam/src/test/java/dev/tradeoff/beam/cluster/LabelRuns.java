package dev.tradeoff.beam.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.label.ClassSet;
import dev.tradeoff.beam.label.CsvSchema;
import dev.tradeoff.beam.label.LabelJob;
import dev.tradeoff.beam.label.LabelPrivacy;
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
