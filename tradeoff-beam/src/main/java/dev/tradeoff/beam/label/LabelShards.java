package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.CountedShards;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.majority.PrivateMajority;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * Query CSV to labelled {@code id,label} shards in one step per range of the query files: the
 * record ranges the plan cut ({@link ReadCsvLines.RecordRanges}: of the files and sizes the plan
 * pinned, handed out once the models are ready), and for
 * each range one {@code DoFn} call that parses its records from one stream over its bytes
 * ({@link ReadCsvLines#forEachRecord}), takes the K teachers' votes on each
 * query, applies the private majority ({@link PrivateMajority#perQuery}, the per-query function
 * of {@link PrivateMajority#byId}) and writes the labels to the range's own shard through Beam's
 * file systems (so the output directory may be on any file system Beam has, shared by the
 * workers). The shards of the ranges that completed are listed with {@code TextIO}, each with the
 * number of labels it holds, and only listed shards are results ({@link CountedShards#completed}): a
 * shard left by a failed attempt that a runner retried is never committed, and the job compares
 * the listed count with the planned one before it commits anything.
 *
 * <p>Why fused, and why not {@code TextIO.write()}: the DirectRunner has no flow control between
 * steps (it runs every ready bundle of an upstream step before the downstream steps catch up), so
 * with one step per stage every query (its line, then its votes, then its label) was in memory at
 * once; and it replaces every {@code WriteFiles} by a sharded write that counts all records first
 * (a side input every record waits for, in memory) and then groups them by shard in memory. Both
 * made the heap grow with the number of queries. Fused, a worker holds one record at a time and
 * writes as it goes; the runner holds only ranges and shard names.
 *
 * <p>Every query is labelled exactly once: every record lies in exactly one range
 * ({@link ReadCsvLines}), and every range is one element.
 */
public final class LabelShards extends PTransform<PBegin, PDone> {

  private static final long serialVersionUID = 1L;

  /** The header of every shard. */
  public static final String HEADER = "id,label";

  private final List<ReadCsvLines.RecordRange> ranges;
  private final CsvSchema schema;
  private final int teachers;
  private final PCollectionView<Map<Integer, TeacherModel>> models;
  private final Featurizer featurizer;
  private final PrivateMajority.QueryMajority majority;
  private final List<String> classes;
  private final String prefix;

  /**
   * @param ranges the record ranges of the query files as the plan cut them
   *     ({@link CsvInput#scan})
   * @param schema the query files' schema
   * @param teachers K
   * @param models the teachers ({@link LabelPipeline.Teachers}); the files are read once ready
   * @param featurizer the features the teachers see
   * @param majority the run's private majority per query
   * @param classes the label values, indexed by class
   * @param prefix where the shards go (a path and file-name prefix)
   */
  public LabelShards(List<ReadCsvLines.RecordRange> ranges, CsvSchema schema, int teachers,
      PCollectionView<Map<Integer, TeacherModel>> models, Featurizer featurizer,
      PrivateMajority.QueryMajority majority, List<String> classes, String prefix) {
    this.ranges = List.copyOf(ranges);
    this.schema = Require.nonNull("schema", schema);
    this.teachers = Require.positive("teachers", teachers);
    this.models = Require.nonNull("models", models);
    this.featurizer = Require.nonNull("featurizer", featurizer);
    this.majority = Require.nonNull("majority", majority);
    this.classes = List.copyOf(classes);
    this.prefix = Require.nonNull("prefix", prefix);
  }

  @Override
  public PDone expand(PBegin begin) {
    return begin
        .apply("Ranges", new ReadCsvLines.RecordRanges(ranges, models))
        .apply("LabelRanges", ParDo.of(new LabelRangeFn(schema, teachers, models, featurizer,
            majority, classes, prefix)).withSideInputs(models))
        .apply("ListShards", CountedShards.listing(prefix));
  }

  /**
   * The K models by index, as received from the side input.
   *
   * @throws IllegalStateException if a teacher is missing
   */
  static TeacherModel[] models(Map<Integer, TeacherModel> byIndex, int teachers) {
    TeacherModel[] m = new TeacherModel[teachers];
    for (int k = 0; k < teachers; k++) {
      m[k] = byIndex.get(k);
      if (m[k] == null) {
        throw new IllegalStateException("teacher " + k + " was not trained");
      }
    }
    return m;
  }

  /** The K teachers' votes on one parsed query row. */
  static int[] votes(TeacherModel[] models, Featurizer featurizer, CsvSchema.Row row) {
    double[] x = featurizer.features(row.features());
    int[] votes = new int[models.length];
    for (int k = 0; k < models.length; k++) {
      votes[k] = models[k].vote(x);
    }
    return votes;
  }

  private static final class LabelRangeFn extends DoFn<ReadCsvLines.RecordRange, String> {
    private static final long serialVersionUID = 1L;
    private final CsvSchema schema;
    private final int teachers;
    private final PCollectionView<Map<Integer, TeacherModel>> models;
    private final Featurizer featurizer;
    private final PrivateMajority.QueryMajority majority;
    private final String[] quoted;
    private final String prefix;
    private transient TeacherModel[] cached;

    LabelRangeFn(CsvSchema schema, int teachers,
        PCollectionView<Map<Integer, TeacherModel>> models, Featurizer featurizer,
        PrivateMajority.QueryMajority majority, List<String> classes, String prefix) {
      this.schema = schema;
      this.teachers = teachers;
      this.models = models;
      this.featurizer = featurizer;
      this.majority = majority;
      this.quoted = classes.stream().map(CsvRecords::quote).toArray(String[]::new);
      this.prefix = prefix;
    }

    @ProcessElement
    public void process(ProcessContext context) throws IOException {
      if (cached == null) {
        cached = models(context.sideInput(models), teachers);
      }
      CountedShards.Shard shard = new CountedShards.Shard(prefix, HEADER);
      try {
        ReadCsvLines.RecordRange range = context.element();
        String where = "queries " + range.file().path();
        ReadCsvLines.forEachRecord(range, "queries", (cells, line) -> {
          CsvSchema.Row row = schema.row(cells, where, line);
          int label = majority.label(row.key(), votes(cached, featurizer, row));
          Writer out = shard.record();
          out.write(CsvRecords.quote(row.key()));
          out.write(',');
          out.write(quoted[label]);
          out.write('\n');
        });
      } catch (IOException | RuntimeException e) {
        shard.close(); // an unlisted shard: never committed
        throw e;
      }
      String entry = shard.close();
      if (entry != null) {
        context.output(entry);
      }
    }
  }
}
