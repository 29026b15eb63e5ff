package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.budget.CountedShards;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.majority.PrivateMajority;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-range labelling gives, for a seed, exactly the labels of the private majority applied
 * query by query ({@link PrivateMajority#perQuery}, which {@link PrivateMajority#byId} applies),
 * each query once, whatever the range size (so however the queries are split among workers).
 */
class LabelShardsTest {

  static final int K = 5;
  static final int Q = 300;

  @TempDir Path dir;

  @Test
  void sameLabelsAsThePrivateMajorityQueryByQueryForEveryRangeSize() throws IOException {
    LabelData.queries(dir.resolve("q/q.csv"), Q, 2, 4);
    CsvSchema train = CsvSchema.training("f2,label,f0,f3,f1".split(","), "train");
    CsvSchema schema = CsvSchema.queries("f1,f3,id,f0,f2".split(","), "queries", train);
    SplittableRandom r = new SplittableRandom(9);
    List<KV<Integer, TeacherModel>> teachers = new ArrayList<>();
    for (int k = 0; k < K; k++) {
      double[] w = new double[5];
      for (int j = 0; j < w.length; j++) {
        w[j] = r.nextGaussian();
      }
      teachers.add(KV.of(k, new TeacherModel(k, new double[][] {w})));
    }
    PrivateMajority majority = PrivateMajority.gnmax(new ApproxDp(2, 1e-5), 2, Q,
        ElementRandomness.seeded(21));
    List<String> classes = List.of("cat", "dog");
    CsvInput input = CsvInput.resolve("queries", dir.resolve("q/*").toString());

    Map<String, String> expected = new HashMap<>();
    TeacherModel[] byIndex = teachers.stream().map(KV::getValue).toArray(TeacherModel[]::new);
    PrivateMajority.QueryMajority perQuery = majority.perQuery();
    List<String> queries = Files.readAllLines(dir.resolve("q/q.csv"));
    for (String line : queries.subList(1, queries.size())) {
      CsvSchema.Row row = schema.row(CsvRecords.cells(line, "test", 1), "test", 0);
      expected.put(row.key(), classes.get(perQuery.label(row.key(),
          LabelShards.votes(byIndex, new Featurizer.UnitNorm(), row))));
    }
    assertThat(expected).hasSize(Q);
    assertThat(expected.values()).contains("cat", "dog");

    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(2));
    PCollectionView<Map<Integer, TeacherModel>> models = p
        .apply("Models", Create.of(teachers).withCoder(KvCoder.of(VarIntCoder.of(),
            SerializableCoder.of(TeacherModel.class))))
        .apply(View.asMap());
    long[] rangeBytes = {37, 500, ReadCsvLines.DEFAULT_RANGE_BYTES};
    for (long bytes : rangeBytes) {
      p.apply("Fused" + bytes, new LabelShards(input.scan(schema, bytes, row -> { }).ranges(),
          schema, K, models, new Featurizer.UnitNorm(), majority.perQuery(),
          classes, dir.resolve("fused" + bytes + "/labels").toString()));
    }
    p.run().waitUntilFinish();

    for (long bytes : rangeBytes) {
      List<CountedShards.Completed> shards = CountedShards.completed(
          dir.resolve("fused" + bytes + "/labels").toString());
      assertThat(shards).as("%d-byte ranges", bytes).isNotEmpty();
      assertThat(shards.stream().mapToLong(CountedShards.Completed::records).sum())
          .as("listed label counts").isEqualTo(Q);
      Map<String, String> fused = new HashMap<>();
      for (CountedShards.Completed shard : shards) {
        List<String> lines = Files.readAllLines(Path.of(shard.path()));
        assertThat(lines.get(0)).isEqualTo(LabelShards.HEADER);
        for (String line : lines.subList(1, lines.size())) {
          String[] c = line.split(",");
          assertThat(fused.put(c[0], c[1])).as("query %s labelled once", c[0]).isNull();
        }
      }
      assertThat(fused).as("%d-byte ranges", bytes).isEqualTo(expected);
    }
  }
}
