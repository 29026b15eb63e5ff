package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.RunOutput;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
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

  static final long SEED = 7;

  static LabelJob.Request request(Path train, Path queries, Path out, Aggregator a, int k,
      double e, int classes) {
    return new LabelJob.Request(train.toString(), queries.toString(), out,
        new LabelPrivacy.Target(new ApproxDp(e, 1e-5), a, k, OptionalDouble.empty(),
        LabelPrivacy.Training.DEFAULT), new ClassSet(List.of(LabelData.NAMES).subList(0, classes)),
        CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(SEED), false);
  }

  static Map<String, String> labels(Path out) throws IOException {
    Map<String, String> m = new HashMap<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("labels-")).toList()) {
        CsvRecords.read(() -> Files.newBufferedReader(f), f.toString(), 1, (c, line) -> {
          if (line == 1) {
            assertThat(c).containsExactly("id", "label");
          } else {
            assertThat(m.put(c[0], c[1])).as("query %s labelled once", c[0]).isNull();
          }
        });
      }
    }
    return m;
  }

  static LabelManifest run(LabelJob.Request r) {
    return run(LabelJob.plan(r));
  }

  static LabelManifest run(LabelJob.Plan plan) {
    return LabelJob.run(plan, new LabelJob.RunInfo(BeamRunner.DIRECT.options(2), "direct", null,
        List.of("test")), null);
  }

  static int correct(Map<String, String> labels, int queries, int classes) {
    int correct = 0;
    for (int i = 0; i < queries; i++) {
      correct += LabelData.truth(i, classes).equals(labels.get("q" + i)) ? 1 : 0;
    }
    return correct;
  }

  @Test
  void dpMajorityChargesTheTeachersGuaranteeForAnyNumberOfQueries() throws IOException {
    LabelData.train(dir.resolve("train"), 3000, 3, 3, 1);
    LabelData.queries(dir.resolve("q100.csv"), 100, 3, 2);
    LabelData.queries(dir.resolve("q100k.csv"), 100_000, 3, 2);
    LabelJob.Plan small = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q100.csv"),
        dir.resolve("a"), Aggregator.DP_MAJORITY, 1, 2, 3));
    LabelJob.Plan large = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q100k.csv"),
        dir.resolve("b"), Aggregator.DP_MAJORITY, 1, 2, 3));
    assertThat(large.queryCount()).isEqualTo(100_000);
    assertThat(large.spend()).isEqualTo(small.spend());
    assertThat(small.spend().epsilon()).isLessThanOrEqualTo(2).isGreaterThan(1.99);
    assertThat(small.spend().delta()).isEqualTo(1e-5);
    assertThat(small.privacy().bounds()).extracting(LabelPrivacy.Bound::analysis)
        .containsExactly("teachers");

    LabelManifest manifest = run(small);
    Map<String, String> labels = labels(dir.resolve("a"));
    assertThat(labels).hasSize(100);
    assertThat(correct(labels, 100, 3)).isGreaterThan(80); // chance: about 33
    assertThat(manifest.guarantee().epsilon()).isEqualTo(small.spend().epsilon());
    assertThat(manifest.guarantee().analysis()).isEqualTo("teachers");
    assertThat(manifest.guarantee().replaceOne().epsilon())
        .isGreaterThanOrEqualTo(2 * manifest.guarantee().epsilon());
    // group privacy of size 2 (Dwork and Roth 2014): (2 epsilon, (1 + e^epsilon) delta), rounded up
    double e = manifest.guarantee().epsilon();
    assertThat(manifest.guarantee().replaceOne().delta())
        .isGreaterThanOrEqualTo((1 + Math.exp(e)) * 1e-5)
        .isCloseTo((1 + Math.exp(e)) * 1e-5, within(1e-18));
    assertThat(manifest.counts().labelled()).isEqualTo(100);
    assertThat(manifest.model().features()).hasSize(4);
    assertThat(manifest.json()).contains("\"private\" : false", "\"bounds\"")
        .doesNotContain("trainRows");
    assertThat(Files.readString(dir.resolve("a").resolve(RunOutput.MANIFEST)).strip())
        .isEqualTo(manifest.json().strip());
  }

  @Test
  void gnmaxComposesItsPerLabelNoiseAndDarrmIsChargedTheTeachersBound() {
    LabelData.train(dir.resolve("train"), 300, 2, 1, 1);
    LabelData.queries(dir.resolve("q.csv"), 100, 2, 2);
    LabelJob.Plan gnmax = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q.csv"),
        dir.resolve("g"), Aggregator.GNMAX, 5, 4, 2));
    assertThat(gnmax.privacy().bounds()).extracting(LabelPrivacy.Bound::analysis)
        .containsExactly("per-label composition");
    assertThat(gnmax.spend().epsilon()).isLessThanOrEqualTo(4);
    LabelJob.Plan darrm = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q.csv"),
        dir.resolve("d"), Aggregator.DARRM_SUB, 5, 4, 2));
    assertThat(darrm.privacy().bounds()).extracting(LabelPrivacy.Bound::analysis)
        .containsExactly("teachers", "per-label composition");
    LabelPrivacy.Bound teachers = darrm.privacy().bounds().get(0);
    LabelPrivacy.Bound perLabel = darrm.privacy().bounds().get(1);
    // never tighter than post-processing, already at Q = 1: the teachers' bound is charged
    assertThat(teachers.total().epsilon()).isLessThan(perLabel.total().epsilon());
    assertThat(darrm.spend()).isEqualTo(teachers.total());
  }

  /**
   * The labels depend on the training data only through the K partition models: the same
   * labels follow from models trained outside the pipeline, each on its own partition's rows
   * alone (a query read during training, or any other path from the data to a label, would make
   * them differ).
   */
  @ParameterizedTest
  @MethodSource("aggregators")
  void labelsAreAFunctionOfTheKPartitionModelsOnly(Aggregator aggregator) throws IOException {
    int k = aggregator == Aggregator.DP_MAJORITY ? 3 : 5;
    LabelData.train(dir.resolve("train"), 900, 2, 2, 4);
    LabelData.queries(dir.resolve("q.csv"), 80, 2, 5);
    LabelJob.Plan plan = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q.csv"),
        dir.resolve("out"), aggregator, k, 3, 2));
    run(plan);
    Map<Integer, List<String>> partitions = new HashMap<>();
    for (Path shard : List.of(dir.resolve("train/part-0.csv"), dir.resolve("train/part-1.csv"))) {
      List<String> lines = Files.readAllLines(shard);
      for (String line : lines.subList(1, lines.size())) {
        partitions.computeIfAbsent(plan.partition().of(plan.trainSchema().partitionKey(line)),
            t -> new ArrayList<>()).add(line);
      }
    }
    TeacherModel[] models = new TeacherModel[k];
    for (int t = 0; t < k; t++) {
      models[t] = TrainTeachers.teacher(t, partitions.getOrDefault(t, List.of()),
          plan.trainSchema(), plan.request().classes(), plan.featurizer(),
          plan.privacy().trainer(), ElementRandomness.seeded(SEED));
    }
    Map<String, String> expected = new HashMap<>();
    List<String> queries = Files.readAllLines(dir.resolve("q.csv"));
    for (String line : queries.subList(1, queries.size())) {
      CsvSchema.Row row = plan.querySchema().row(CsvRecords.cells(line, "q", 1), "q", 0);
      expected.put(row.key(), plan.request().classes().names().get(plan.majority().label(
          row.key(), LabelShards.votes(models, plan.featurizer(), row))));
    }
    assertThat(labels(dir.resolve("out"))).isEqualTo(expected);
  }

  static Stream<Aggregator> aggregators() {
    return Stream.of(Aggregator.values());
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
        aggregator, 3, aggregator == Aggregator.DP_MAJORITY ? 2 : 40, 2));
    assertThat(plan.queryCount()).isEqualTo(20);
    Set<String> planned = idsOf(dir.resolve("q/part-0.csv"));
    // more rows on the pinned shard (its last row had a line end), a new shard beside it, and
    // more training rows
    Files.writeString(dir.resolve("q/part-0.csv"), "1,1,extra1,1,1\n2,2,extra2,2,2\n",
        StandardOpenOption.APPEND);
    LabelData.queries(dir.resolve("q/part-1.csv"), 10, 2, 5);
    LabelData.train(dir.resolve("train-more"), 50, 2, 1, 6);
    Files.move(dir.resolve("train-more/part-0.csv"), dir.resolve("train/part-9.csv"));
    LabelManifest manifest = LabelJob.run(plan, new LabelJob.RunInfo(runner.options(2),
        runner.cliName(), null, List.of("test")), null);
    assertThat(labels(out).keySet()).isEqualTo(planned);
    assertThat(manifest.counts().labelled()).isEqualTo(20);
  }

  /**
   * The queries as RFC 4180 has them, read by the plan and by the pipeline's record ranges alike:
   * a byte-order mark, CRLF line ends, ids holding commas, quotes and line breaks; each labelled
   * once under its id (written back quoted).
   */
  @Test
  void queriesWithQuotedCellsLineBreaksBomAndCrlfAreEachLabelledOnce() throws IOException {
    LabelData.train(dir.resolve("train"), 300, 2, 2, 3);
    List<String> ids = List.of("a,1", "b\nsecond line", "c \"quoted\"", "d\r\ne", "plain");
    StringBuilder q = new StringBuilder("\uFEFFf1,f3,id,f0,f2\r\n");
    for (int i = 0; i < ids.size(); i++) {
      q.append(i).append(", 1,").append(CsvRecords.quote(ids.get(i))).append(",\"-1\",2\r\n");
    }
    Files.writeString(dir.resolve("q.csv"), q);
    LabelJob.Plan plan = LabelJob.plan(request(dir.resolve("train"), dir.resolve("q.csv"),
        dir.resolve("out"), Aggregator.GNMAX, 3, 40, 2));
    assertThat(plan.queryCount()).isEqualTo(ids.size());
    run(plan);
    assertThat(labels(dir.resolve("out")).keySet()).containsExactlyInAnyOrderElementsOf(ids);
  }

  @Test
  void aMalformedQueryIsRefusedWithItsFileLineAndColumn() throws IOException {
    LabelData.train(dir.resolve("train"), 60, 2, 1, 5);
    Path q = Files.writeString(dir.resolve("q.csv"),
        "f1,f3,id,f0,f2\n1,1,\"a\nb\",1,1\n1,1,\"open,1,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(dir.resolve("train"), q, dir.resolve("out"),
        Aggregator.GNMAX, 1, 5, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queries " + q + ":4, column 3: a quoted cell is never closed");
    Path empty = Files.writeString(dir.resolve("empty-id.csv"), "f1,f3,id,f0,f2\n1,1, ,1,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(dir.resolve("train"), empty,
        dir.resolve("out"), Aggregator.GNMAX, 1, 5, 2)))
        .hasMessage("queries " + empty + ":2, column 3: the label or id cell must not be empty");
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
        Aggregator.GNMAX, 3, 40, 2));
    LabelData.queries(dir.resolve("q/part-0.csv"), 5, 2, 4);
    assertThatThrownBy(() -> run(plan))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("fewer than");
    assertThat(out).doesNotExist(); // the run created it, and removed it: nothing committed
  }

  static Set<String> idsOf(Path queries) throws IOException {
    Set<String> ids = new HashSet<>();
    List<String> lines = Files.readAllLines(queries);
    for (String line : lines.subList(1, lines.size())) {
      ids.add(line.split(",")[2]);
    }
    return ids;
  }

  @Test
  void seededRunsAreReproducible() throws IOException {
    LabelData.train(dir.resolve("train"), 600, 2, 2, 3);
    LabelData.queries(dir.resolve("q.csv"), 40, 2, 4);
    run(request(dir.resolve("train"), dir.resolve("q.csv"), dir.resolve("a"),
        Aggregator.DARRM_SUB, 5, 40, 2));
    run(request(dir.resolve("train"), dir.resolve("q.csv"), dir.resolve("b"),
        Aggregator.DARRM_SUB, 5, 40, 2));
    Map<String, String> a = labels(dir.resolve("a"));
    assertThat(a).hasSize(40).isEqualTo(labels(dir.resolve("b")));
    assertThat(a.values()).allMatch(v -> v.equals("cat") || v.equals("dog"));
  }

  /**
   * Nothing about the training rows is refused or counted: more teachers than rows (empty
   * partitions), unreadable rows and labels that are not classes are trained around, and the
   * classes are compared after NFC normalisation and trimming.
   */
  @Test
  void sensitiveRowsAreNeverRefusedAndClassesArePublicInput() throws IOException {
    Path train = dir.resolve("train.csv");
    StringBuilder b = new StringBuilder("f2,label,f0,f3,f1\n");
    for (int i = 0; i < 40; i++) {
      // "café" typed with a combining accent and padded: the class "café" after NFC and trim
      b.append(i % 2 == 0 ? "0,cafe\u0301 ,3,0,0\n" : "0,tea,-3,0,0\n");
    }
    b.append("1,2,3\n").append("\"unbalanced,café,1,1,1\n").append("0,bird,9,9,9\n");
    Files.writeString(train, b);
    Path q = dir.resolve("q.csv");
    Files.writeString(q, "f1,f3,id,f0,f2\n0,0,a,3,0\n0,0,b,-3,0\n");
    LabelJob.Request r = new LabelJob.Request(train.toString(), q.toString(), dir.resolve("out"),
        new LabelPrivacy.Target(new ApproxDp(2, 1e-5), Aggregator.DP_MAJORITY, 101,
        OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(List.of("café",
        "tea")), CsvSchema.Columns.DEFAULT, LabelJob.FeatureOptions.DEFAULT, OptionalLong.of(SEED),
        false);
    LabelManifest manifest = run(r);
    assertThat(labels(dir.resolve("out"))).hasSize(2);
    assertThat(manifest.labels()).containsExactly("café", "tea");
  }

  @Test
  void badInputIsRefusedBeforeTraining() throws IOException {
    LabelData.train(dir.resolve("train"), 60, 3, 1, 5);
    LabelData.queries(dir.resolve("q.csv"), 10, 2, 6);
    Path train = dir.resolve("train");
    Path q = dir.resolve("q.csv");
    Path out = dir.resolve("out");
    // empty glob
    assertThatThrownBy(() -> LabelJob.plan(request(dir.resolve("nothing-*.csv"), q, out,
        Aggregator.GNMAX, 3, 5, 2))).hasMessageContaining("matched none");
    // a ragged query row (queries are public: refused with its line)
    Path ragged = dir.resolve("ragged.csv");
    Files.writeString(ragged, "f1,f3,id,f0,f2\n1,1,a,1,1\n1,1,b,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(train, ragged, out, Aggregator.GNMAX, 1, 5,
        2))).hasMessageContaining("ragged.csv:3").hasMessageContaining("cells");
    // DaRRM with three classes
    assertThatThrownBy(() -> request(train, q, out, Aggregator.DARRM_OPT, 5, 5, 3))
        .hasMessageContaining("classes must be exactly two");
    // a pandas index column
    Path pandas = dir.resolve("pandas.csv");
    Files.writeString(pandas, ",f0,f1,f2,f3,label\n0,1,1,1,1,cat\n");
    assertThatThrownBy(() -> LabelJob.plan(request(pandas, q, out, Aggregator.GNMAX, 1, 5, 2)))
        .hasMessageContaining("pandas").hasMessageContaining("--ignore");
    // a feature the queries lack
    Path fewer = dir.resolve("fewer.csv");
    Files.writeString(fewer, "f1,id,f0,f2\n1,a,1,1\n");
    assertThatThrownBy(() -> LabelJob.plan(request(train, fewer, out, Aggregator.GNMAX, 1, 5,
        2))).hasMessageContaining("lacks [f3]");
    // a range for a column that is not a feature
    assertThatThrownBy(() -> LabelJob.plan(new LabelJob.Request(train.toString(), q.toString(), out,
        new LabelPrivacy.Target(new ApproxDp(1, 1e-5), Aggregator.DP_MAJORITY, 1,
        OptionalDouble.empty(), LabelPrivacy.Training.DEFAULT), new ClassSet(List.of("a", "b")),
        CsvSchema.Columns.DEFAULT, new LabelJob.FeatureOptions(Map.of("f9",
            new dev.tradeoff.learning.features.FeatureMap.Range(0, 1)), Set.of(), 16, 4),
                OptionalLong.empty(), false)))
        .hasMessageContaining("range").hasMessageContaining("f9");
    assertThat(out).doesNotExist();
  }
}
