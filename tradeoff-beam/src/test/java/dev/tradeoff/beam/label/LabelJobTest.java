package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelJobTest {

  @TempDir Path dir;

  LabelJob.Request request(Path train, Path queries, Path out, Aggregator a, int k, double e) {
    return new LabelJob.Request(train.toString(), queries.toString(), out, new ApproxDp(e, 1e-5),
        k, a, Double.NaN, LabelPrivacy.Training.DEFAULT, OptionalLong.of(7), false);
  }

  static Map<String, String> labels(Path out) throws IOException {
    Map<String, String> m = new HashMap<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("labels-")).toList()) {
        List<String> lines = Files.readAllLines(f);
        assertThat(lines.get(0)).isEqualTo("id,label");
        for (String line : lines.subList(1, lines.size())) {
          String[] c = line.split(",");
          assertThat(m.put(c[0], c[1])).as("query %s labelled once", c[0]).isNull();
        }
      }
    }
    return m;
  }

  static Map<String, Object> run(LabelJob.Request r) {
    LabelJob.Plan plan = LabelJob.plan(r);
    return LabelJob.run(plan, new LabelJob.RunInfo(BeamRunner.DIRECT.options(2), "direct", null,
        List.of("test")), null);
  }

  @Test
  void gnmaxLabelsEveryQueryOnceInTheTrainingDataValues() throws IOException {
    LabelData.train(dir.resolve("train"), 450, 3, 3, 1);
    LabelData.queries(dir.resolve("q.csv"), 60, 3, 2);
    Path out = dir.resolve("out");
    Map<String, Object> manifest = run(request(dir.resolve("train"), dir.resolve("q.csv"), out,
        Aggregator.GNMAX, 5, 20));
    Map<String, String> labels = labels(out);
    assertThat(labels).hasSize(60);
    int correct = 0;
    for (int i = 0; i < 60; i++) {
      assertThat(labels.get("q" + i)).isIn("cat", "dog", "emu");
      correct += labels.get("q" + i).equals(LabelData.truth(i, 3)) ? 1 : 0;
    }
    assertThat(correct).isGreaterThan(36); // chance: about 20
    assertThat(out.resolve(LabelJob.MANIFEST)).exists();
    assertThat(out.resolve(LabelJob.INCOMPLETE)).doesNotExist();
    try (Stream<Path> s = Files.list(out)) {
      assertThat(s.filter(p -> p.getFileName().toString().startsWith(".")).count()).isZero();
    }
    assertThat(manifest.get("seeded")).isEqualTo(true);
    @SuppressWarnings("unchecked")
    Map<String, Object> g = (Map<String, Object>) manifest.get("guarantee");
    assertThat((double) g.get("epsilon")).isLessThanOrEqualTo(20);
    @SuppressWarnings("unchecked")
    Map<String, Object> counts = (Map<String, Object>) manifest.get("counts");
    assertThat(counts.get("queries")).isEqualTo(60L);
    assertThat(counts.get("labelled")).isEqualTo(60L);
    assertThat(counts.get("trainRows")).isEqualTo(450L);
    assertThat(LabelJob.json(manifest)).contains("\"derivation\"");
  }

  /**
   * The safety property of a run: it never labels more queries than it planned and charged for.
   * Rows appended to a query shard and a shard added to the directory after the plan are not
   * read, on every runner and for every aggregator.
   */
  @ParameterizedTest
  @MethodSource("aggregatorsAndRunners")
  void queriesAddedAfterThePlanAreNeverLabelled(Aggregator aggregator, BeamRunner runner)
      throws IOException {
    LabelData.train(dir.resolve("train"), 300, 2, 2, 3);
    LabelData.queries(dir.resolve("q/part-0.csv"), 20, 2, 4);
    Path out = dir.resolve("out");
    LabelJob.Plan plan = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q"), out,
        aggregator, 3, 40));
    assertThat(plan.queryCount()).isEqualTo(20);
    Set<String> planned = labelsOf(dir.resolve("q/part-0.csv"));
    // 30 more rows on the pinned shard (its last row had a line end), a new shard beside it, and
    // more training rows
    Files.writeString(dir.resolve("q/part-0.csv"), "1,1,extra1,1,1\n2,2,extra2,2,2\n",
        StandardOpenOption.APPEND);
    LabelData.queries(dir.resolve("q/part-1.csv"), 10, 2, 5);
    LabelData.train(dir.resolve("train-more"), 50, 2, 1, 6);
    Files.move(dir.resolve("train-more/part-0.csv"), dir.resolve("train/part-9.csv"));
    Map<String, Object> manifest = LabelJob.run(plan, new LabelJob.RunInfo(runner.options(2),
        runner.cliName(), null, List.of("test")), null);
    assertThat(labels(out).keySet()).isEqualTo(planned);
    @SuppressWarnings("unchecked")
    Map<String, Object> counts = (Map<String, Object>) manifest.get("counts");
    assertThat(counts.get("labelled")).isEqualTo(20L);
  }

  static Stream<Arguments> aggregatorsAndRunners() {
    return Stream.of(BeamRunner.DIRECT, BeamRunner.FLINK, BeamRunner.SPARK)
        .flatMap(r -> Stream.of(Aggregator.values()).map(a -> Arguments.of(a, r)));
  }

  @Test
  void aQueryShardThatShrankAfterThePlanFailsTheRunWithNothingCommitted() throws IOException {
    LabelData.train(dir.resolve("train"), 300, 2, 2, 3);
    LabelData.queries(dir.resolve("q/part-0.csv"), 20, 2, 4);
    Path out = dir.resolve("out");
    LabelJob.Plan plan = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q"), out,
        Aggregator.GNMAX, 3, 40));
    LabelData.queries(dir.resolve("q/part-0.csv"), 5, 2, 4);
    assertThatThrownBy(() -> LabelJob.run(plan, new LabelJob.RunInfo(
        BeamRunner.DIRECT.options(2), "direct", null, List.of("test")), null))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("fewer than");
    try (Stream<Path> s = Files.list(out)) {
      assertThat(s.toList()).isEmpty();
    }
  }

  static Set<String> labelsOf(Path queries) throws IOException {
    Set<String> ids = new HashSet<>();
    List<String> lines = Files.readAllLines(queries);
    for (String line : lines.subList(1, lines.size())) {
      ids.add(line.split(",")[2]);
    }
    return ids;
  }

  @Test
  void darrmSeededRunsAreReproducible() throws IOException {
    LabelData.train(dir.resolve("train"), 600, 2, 2, 3);
    LabelData.queries(dir.resolve("q.csv"), 40, 2, 4);
    run(request(dir.resolve("train"), dir.resolve("q.csv"), dir.resolve("a"),
        Aggregator.DARRM_SUB, 5, 40));
    run(request(dir.resolve("train"), dir.resolve("q.csv"), dir.resolve("b"),
        Aggregator.DARRM_SUB, 5, 40));
    Map<String, String> a = labels(dir.resolve("a"));
    assertThat(a).hasSize(40).isEqualTo(labels(dir.resolve("b")));
    assertThat(a.values()).allMatch(v -> v.equals("cat") || v.equals("dog"));
  }

  @Test
  void badInputIsRefusedBeforeTraining() throws IOException {
    LabelData.train(dir.resolve("train"), 60, 2, 1, 5);
    LabelData.queries(dir.resolve("q.csv"), 10, 2, 6);
    Path train = dir.resolve("train");
    Path q = dir.resolve("q.csv");
    Path out = dir.resolve("out");
    // K larger than the number of rows
    assertThatThrownBy(() -> LabelJob.plan(request(train, q, out, Aggregator.DARRM_OPT, 61, 5)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("teachers");
    // empty glob
    assertThatThrownBy(() -> LabelJob.plan(request(dir.resolve("nothing-*.csv"), q, out,
        Aggregator.GNMAX, 3, 5))).hasMessageContaining("matched none");
    // ragged and non-numeric rows
    Path ragged = dir.resolve("ragged.csv");
    Files.writeString(ragged, "label,a,b\nx,1,2\ny,3\n");
    Path rq = dir.resolve("rq.csv");
    Files.writeString(rq, "id,b,a\n1,1,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(ragged, rq, out, Aggregator.GNMAX, 1, 5)))
        .hasMessageContaining("ragged.csv:3").hasMessageContaining("cells");
    Path text = dir.resolve("text.csv");
    Files.writeString(text, "label,a,b\nx,1,2\ny,3,abc\n");
    assertThatThrownBy(() -> LabelJob.plan(request(text, rq, out, Aggregator.GNMAX, 1, 5)))
        .hasMessageContaining("feature b must be a number");
    // a single label value; more than two with DaRRM
    Path single = dir.resolve("single.csv");
    Files.writeString(single, "label,a,b\nx,1,2\nx,3,4\n");
    assertThatThrownBy(() -> LabelJob.plan(request(single, rq, out, Aggregator.GNMAX, 1, 5)))
        .hasMessageContaining("two distinct");
    Path three = dir.resolve("three.csv");
    Files.writeString(three, "label,a,b\nx,1,2\ny,3,4\nz,5,6\n");
    assertThatThrownBy(() -> LabelJob.plan(request(three, rq, out, Aggregator.DARRM_SUB, 1, 5)))
        .hasMessageContaining("exactly two");
    // query features differ from the training features
    Path other = dir.resolve("other.csv");
    Files.writeString(other, "id,a,c\n1,1,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(three, other, out, Aggregator.GNMAX, 1, 5)))
        .hasMessageContaining("feature columns");
    // existing non-empty output
    Files.createDirectories(out);
    Files.writeString(out.resolve("keep.txt"), "mine");
    assertThatThrownBy(() -> LabelJob.plan(request(train, q, out, Aggregator.GNMAX, 3, 5)))
        .hasMessageContaining("not empty");
    assertThat(out.resolve("keep.txt")).hasContent("mine");
  }

}
