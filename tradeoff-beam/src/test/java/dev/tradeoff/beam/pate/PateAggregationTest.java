package dev.tradeoff.beam.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.beam.budget.PrivatePipeline;
import dev.tradeoff.beam.coder.IntArrayCoder;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import dev.tradeoff.ensemble.pate.Answer;
import dev.tradeoff.ensemble.pate.GnssRelease;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.pate.VoteTable;
import dev.tradeoff.ensemble.pate.Votes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PateAggregationTest {

  private static final int K = 250;
  private static final int C = 10;
  private static final long SEED = 23;

  @TempDir Path tmp;

  /** Q histograms of K = 250 teachers over ten classes, from unanimous to split. */
  private static VoteTable table(int queries) {
    SplittableRandom random = new SplittableRandom(4);
    List<Votes> rows = new ArrayList<>();
    for (int q = 0; q < queries; q++) {
      int[] counts = new int[C];
      double agreement = random.nextDouble();
      int top = random.nextInt(C);
      for (int t = 0; t < K; t++) {
        counts[random.nextDouble() < agreement ? top : random.nextInt(C)]++;
      }
      rows.add(new Votes("q" + q, counts));
    }
    return VoteTable.of(rows);
  }

  /** Student probabilities per query: confident on even queries, unsure on odd ones. */
  private static Map<String, double[]> student(VoteTable table) {
    Map<String, double[]> p = new HashMap<>();
    for (int q = 0; q < table.size(); q++) {
      double[] probabilities = new double[C];
      java.util.Arrays.fill(probabilities, (q % 2 == 0 ? 0.1 : 0.9) / (C - 1));
      probabilities[q % C] = q % 2 == 0 ? 0.9 : 0.1;
      p.put(table.rows().get(q).id(), probabilities);
    }
    return p;
  }

  private static PCollection<KV<String, int[]>> votes(Pipeline p, List<KV<String, int[]>> rows) {
    return p.apply("Votes", Create.of(rows)
        .withCoder(KvCoder.of(StringUtf8Coder.of(), IntArrayCoder.of())));
  }

  private static List<KV<String, int[]>> rows(VoteTable table) {
    return table.rows().stream().map(v -> KV.of(v.id(), v.counts())).toList();
  }

  private static String line(String id, Answer a) {
    return id + " " + a;
  }

  private static List<String> lines(VoteTable table, PateRun run) {
    List<String> lines = new ArrayList<>();
    for (int q = 0; q < run.processed(); q++) {
      lines.add(line(table.rows().get(q).id(), run.answers().get(q)));
    }
    lines.sort(null);
    return lines;
  }

  private Collected collect(PCollectionTuple out, String name) {
    return Collected.writeTo(out.get(PateAggregation.ANSWERS).apply("Format " + name,
        MapElements.into(TypeDescriptors.strings()).via(kv -> line(kv.getKey(), kv.getValue()))),
        tmp.resolve(name));
  }

  @Test
  void confidentGnmaxAndItsReleaseAreThoseOfTheInMemoryRunForTheSameSeed() {
    VoteTable table = table(60);
    PateAggregator.ConfidentGnmax agg = new PateAggregator.ConfidentGnmax(200, 150, 40);
    GnssRelease gnss = GnssRelease.of(20, 10);
    ElementRandomness randomness = ElementRandomness.seeded(SEED);
    PateRun run = PateRun.allQueries(table, agg, 1e-5, PateAggregation.queryNoise(randomness));
    GnssRelease.Released released = gnss.release(run, table, agg, 1e-5,
        PateAggregation.releaseNoise(randomness));

    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(3));
    PateAggregation transform = PateAggregation.of(agg,
        new PateAggregation.Declared(table.size(), C, K), randomness).withRelease(gnss, 1e-5);
    PCollectionTuple out = votes(p, rows(table)).apply("Aggregate", transform);
    Collected answers = collect(out, "answers");
    Collected release = Collected.writeTo(out.get(PateAggregation.RELEASE).apply("Format release",
        MapElements.into(TypeDescriptors.strings()).via(GnssRelease.Released::toString)),
        tmp.resolve("release"));
    p.run().waitUntilFinish();

    assertThat(answers.lines()).isEqualTo(lines(table, run));
    assertThat(run.answered()).isBetween(1, table.size() - 1);
    assertThat(release.lines()).containsExactly(released.toString());
    assertThat(transform.labelsEvent()).isEqualTo(run.event());
    assertThat(transform.event()).isEqualTo(ComposedEvent.of(run.event(),
        new GuaranteeEvent(RenyiDp.ofOrder(20, gnss.cost()))));
  }

  @Test
  void interactiveGnmaxJoinsTheStudentByIdAndGivesTheInMemoryLabels() {
    VoteTable table = table(40);
    Map<String, double[]> student = student(table);
    PateAggregator.InteractiveGnmax agg = new PateAggregator.InteractiveGnmax(50, 20, 40, 0.8,
        student);
    ElementRandomness randomness = ElementRandomness.seeded(SEED);
    PateRun run = PateRun.allQueries(table, agg, 1e-5, PateAggregation.queryNoise(randomness));

    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(2));
    List<KV<String, double[]>> predictions = new ArrayList<>();
    student.forEach((id, probabilities) -> predictions.add(KV.of(id, probabilities)));
    predictions.add(KV.of("no votes", new double[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    PCollection<KV<String, double[]>> students = p.apply("Student", Create.of(predictions)
        .withCoder(KvCoder.of(StringUtf8Coder.of(), doubles())));
    PCollectionTuple out = votes(p, rows(table)).apply("Aggregate",
        PateAggregation.interactiveGnmax(50, 20, 40, 0.8, students,
            new PateAggregation.Declared(table.size(), C, K), randomness));
    Collected answers = collect(out, "answers");
    p.run().waitUntilFinish();

    assertThat(answers.lines()).isEqualTo(lines(table, run));
    assertThat(run.answers()).anyMatch(a -> a instanceof Answer.Reinforced)
        .anyMatch(a -> a instanceof Answer.Labelled);
  }

  @Test
  void gnmaxWithoutReleaseOutputsOnlyTheAnswers() {
    VoteTable table = table(20);
    PateAggregator.Gnmax agg = new PateAggregator.Gnmax(40);
    ElementRandomness randomness = ElementRandomness.seeded(SEED);
    PateRun run = PateRun.allQueries(table, agg, 1e-5, PateAggregation.queryNoise(randomness));
    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(2));
    PCollectionTuple out = votes(p, rows(table)).apply("Aggregate", PateAggregation.of(agg,
        new PateAggregation.Declared(table.size(), C, K), randomness));
    Collected answers = collect(out, "answers");
    p.run().waitUntilFinish();
    assertThat(answers.lines()).isEqualTo(lines(table, run));
    assertThat(out.has(PateAggregation.RELEASE)).isFalse();
  }

  @Test
  void aPrivatePipelineChargesTheLabelsAndTheReleaseBeforeTheRun() {
    VoteTable table = table(30);
    PateAggregator.ConfidentGnmax agg = new PateAggregator.ConfidentGnmax(200, 150, 40);
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1),
        new ApproxDp(100, 1e-5), ElementRandomness.seeded(SEED));
    PateAggregation transform = PateAggregation.of(agg,
        new PateAggregation.Declared(table.size(), C, K), pp.randomness())
        .withRelease(GnssRelease.of(20, 10), 1e-5);
    PCollectionTuple out = pp.apply("Aggregate", votes(pp.pipeline(), rows(table)), transform);
    collect(out, "answers");
    double charged = pp.guarantee().total().epsilon();
    // at least the labels alone, and finite
    assertThat(charged).isGreaterThanOrEqualTo(PateRun.guarantee(transform.labelsEvent(), 1e-5)
        .epsilon()).isLessThan(100);
    pp.run();
    assertThat(pp.budget().entries()).hasSize(1);
  }

  @Test
  void aRepeatedIdTooManyRowsAMissingPredictionOrAWrongShapeFailThePipeline() {
    VoteTable table = table(3);
    PateAggregator.Gnmax agg = new PateAggregator.Gnmax(40);
    List<KV<String, int[]>> repeated = new ArrayList<>(rows(table));
    repeated.add(KV.of("q0", table.rows().get(0).counts()));
    assertFails(repeated, PateAggregation.of(agg, new PateAggregation.Declared(10, C, K),
        ElementRandomness.seeded(1)), "vote rows of query q0 must be one");
    assertFails(rows(table), PateAggregation.of(agg, new PateAggregation.Declared(2, C, K),
        ElementRandomness.seeded(1)), "at most the declared 2 queries, but held 3 rows");
    assertFails(rows(table), PateAggregation.of(agg, new PateAggregation.Declared(3, C, K + 1),
        ElementRandomness.seeded(1)), "must equal the declared 251");

    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(1));
    PCollection<KV<String, double[]>> none = p.apply("Student", Create.empty(
        KvCoder.of(StringUtf8Coder.of(), doubles())));
    votes(p, rows(table)).apply("Aggregate", PateAggregation.interactiveGnmax(50, 20, 40, 0.8,
        none, new PateAggregation.Declared(3, C, K), ElementRandomness.seeded(1)));
    assertThatThrownBy(() -> p.run().waitUntilFinish())
        .rootCause().hasMessageContaining("student predictions of query")
        .hasMessageContaining("must be one");
  }

  @Test
  void theReleaseRefusesInteractiveGnmaxAndParametersFailingC5C6BeforeAnyPipeline() {
    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(1));
    PCollection<KV<String, double[]>> none = p.apply("Student", Create.empty(
        KvCoder.of(StringUtf8Coder.of(), doubles())));
    PateAggregation interactive = PateAggregation.interactiveGnmax(50, 20, 40, 0.8, none,
        new PateAggregation.Declared(3, C, K), ElementRandomness.seeded(1));
    assertThatThrownBy(() -> interactive.withRelease(GnssRelease.of(20, 10), 1e-5))
        .hasMessageContaining("Appendix B.4");
    assertThatThrownBy(() -> PateAggregation.of(new PateAggregator.Gnmax(20),
        new PateAggregation.Declared(3, C, K), ElementRandomness.seeded(1))
        .withRelease(GnssRelease.of(20, 10), 1e-5)).hasMessageContaining("C5 and C6");
    assertThatThrownBy(() -> PateAggregation.of(interactive.aggregator(),
        new PateAggregation.Declared(3, C, K), ElementRandomness.seeded(1)))
        .hasMessageContaining("interactiveGnmax");
  }

  private void assertFails(List<KV<String, int[]>> rows, PateAggregation transform,
      String message) {
    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(1));
    votes(p, rows).apply("Aggregate", transform);
    assertThatThrownBy(() -> p.run().waitUntilFinish()).rootCause()
        .hasMessageContaining(message);
  }

  private static org.apache.beam.sdk.coders.Coder<double[]> doubles() {
    return org.apache.beam.sdk.coders.SerializableCoder.of(double[].class);
  }
}
