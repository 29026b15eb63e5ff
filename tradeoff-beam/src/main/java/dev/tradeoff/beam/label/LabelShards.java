package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.beam.majority.PrivateMajority;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * Query CSV to labelled {@code id,label} shards in one step per range of the query files: the
 * composition of {@link ReadCsvLines}, {@link VoteQueries}, the private majority
 * ({@link PrivateMajority#perQuery}, the same per-query function as
 * {@link PrivateMajority#byId}) and {@link WriteBundles}, fused by hand into one {@code DoFn}
 * that reads a range's lines, votes, labels and writes them to the range's own shard.
 *
 * <p>Why fused: the DirectRunner has no flow control between steps: it runs every ready bundle of
 * an upstream step before the downstream steps catch up, so with one step per stage every query
 * (its line, then its votes, then its label) was in memory at once, and the heap grew with the
 * number of queries. Fused, a worker holds one line at a time and writes as it goes; the runner
 * holds only ranges and shard names. The output is committed as in {@link WriteBundles}: only the
 * shards of completed ranges are listed ({@link WriteBundles#completedShards}).
 *
 * <p>Every query is labelled exactly once: every line lies in exactly one range
 * ({@link ReadCsvLines}), and every range is one element.
 */
public final class LabelShards extends PTransform<PBegin, PDone> {

  private static final long serialVersionUID = 1L;

  private final String pattern;
  private final CsvSchema schema;
  private final int teachers;
  private final PCollectionView<Map<Integer, TeacherModel>> models;
  private final PrivateMajority.QueryMajority majority;
  private final List<String> classes;
  private final String prefix;
  private final long rangeBytes;

  /**
   * @param pattern the query files (a file name or a glob; each file starts with the header)
   * @param schema the query files' schema
   * @param teachers K
   * @param models the teachers ({@link LabelPipeline.Teachers}); the files are read once ready
   * @param majority the run's private majority per query
   * @param classes the label values, indexed by class
   * @param prefix where the shards go (a path and file-name prefix)
   * @param rangeBytes the size of a range of the query files ({@link ReadCsvLines})
   */
  public LabelShards(String pattern, CsvSchema schema, int teachers,
      PCollectionView<Map<Integer, TeacherModel>> models, PrivateMajority.QueryMajority majority,
      List<String> classes, String prefix, long rangeBytes) {
    this.pattern = Require.nonNull("pattern", pattern);
    this.schema = Require.nonNull("schema", schema);
    this.teachers = Require.positive("teachers", teachers);
    this.models = Require.nonNull("models", models);
    this.majority = Require.nonNull("majority", majority);
    this.classes = List.copyOf(classes);
    this.prefix = Require.nonNull("prefix", prefix);
    this.rangeBytes = Require.positive("rangeBytes", rangeBytes);
  }

  /**
   * The label shards that the completed ranges wrote under {@code prefix}, sorted; read after the
   * pipeline finished. Each starts with the header {@code id,label}.
   *
   * @param prefix the prefix given to the transform
   * @return the shards' paths
   * @throws IOException if the list of shards cannot be read
   */
  public static List<String> completedShards(String prefix) throws IOException {
    return WriteBundles.completedShards(prefix);
  }

  @Override
  public PDone expand(PBegin begin) {
    return WriteBundles.listShards(begin
        .apply("Ranges", new ReadCsvLines.Ranges(pattern, models, rangeBytes))
        .apply("LabelRanges", ParDo.of(new LabelRangeFn(schema, teachers, models, majority,
            classes, prefix)).withSideInputs(models)), prefix);
  }

  private static final class LabelRangeFn extends DoFn<KV<String, OffsetRange>, String> {
    private static final long serialVersionUID = 1L;
    private final CsvSchema schema;
    private final int teachers;
    private final PCollectionView<Map<Integer, TeacherModel>> models;
    private final PrivateMajority.QueryMajority majority;
    private final List<String> classes;
    private final String prefix;
    private final Counter written = Metrics.counter(LabelPipeline.class,
        LabelPipeline.LABELS_COUNTER);
    private transient TeacherModel[] cached;

    LabelRangeFn(CsvSchema schema, int teachers,
        PCollectionView<Map<Integer, TeacherModel>> models,
        PrivateMajority.QueryMajority majority, List<String> classes, String prefix) {
      this.schema = schema;
      this.teachers = teachers;
      this.models = models;
      this.majority = majority;
      this.classes = classes;
      this.prefix = prefix;
    }

    @ProcessElement
    public void process(ProcessContext context) throws IOException {
      if (cached == null) {
        cached = VoteQueries.models(context.sideInput(models), teachers);
      }
      KV<String, OffsetRange> range = context.element();
      WriteBundles.Shard shard = new WriteBundles.Shard(prefix, classes);
      try {
        ReadCsvLines.forEachLine(range.getKey(), range.getValue(), line -> {
          CsvSchema.Row row = schema.parse(line, "queries");
          shard.write(row.key(), majority.label(row.key(), VoteQueries.votes(cached, row)));
        });
      } catch (IOException | RuntimeException e) {
        shard.close(); // an unlisted shard: never committed
        throw e;
      }
      String path = shard.close();
      if (path != null) {
        written.inc(shard.lines());
        context.output(path);
      }
    }
  }
}
