package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.learning.dpsgd.DpSgd;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * The transforms of the labelling job (PATE-style knowledge transfer with a private majority per
 * query, [DaRRM24, Section 6.2]), as three composites that {@code tradeoff label} ({@link LabelJob})
 * and the paper's experiment ({@code tradeoff predict}) both build their pipelines from:
 *
 * <ol>
 *   <li>{@link Teachers}: training CSV lines read with {@code TextIO}, each to one of K partitions
 *       by a keyed hash, one teacher trained per partition ({@link TrainTeachers}), the K models as
 *       a side input;
 *   <li>{@link Labels}: query CSV lines read with {@code FileIO} in byte ranges once the models
 *       are ready ({@link ReadCsvLines}), the K teachers' votes per query ({@link VoteQueries}),
 *       then the majority per query (the private majority of the run);
 *   <li>{@link WriteLabels}: the labels as {@code id,label} CSV shards, one per bundle, through
 *       Beam's file systems ({@link WriteBundles}: {@code TextIO.write} would hold every label in
 *       memory on the DirectRunner).
 * </ol>
 *
 * <p>{@code tradeoff label} itself runs {@link Teachers} then {@link LabelShards}: the same
 * reading, votes and private majority per query as {@link Labels} followed by
 * {@link WriteLabels}, fused into one step per range of the query files so that no runner holds
 * the queries in memory (the same labels for the same seed; {@code LabelShardsTest}).
 *
 * <p>Records reach the pipeline only through these reads, never from the driver's memory, so the
 * same pipeline runs on workers that share no disk with the driver.
 */
public final class LabelPipeline {

  /** The counter of labels written by {@link WriteLabels}, in namespace {@link LabelPipeline}. */
  public static final String LABELS_COUNTER = "labels";

  private LabelPipeline() {}

  /**
   * Training CSV (a header, a {@code label} column and numeric features) to the K trained teachers'
   * models, keyed by teacher index, as a side input.
   */
  public static final class Teachers
      extends PTransform<PBegin, PCollectionView<Map<Integer, TeacherModel>>> {

    private static final long serialVersionUID = 1L;

    private final String pattern;
    private final TeacherPartition partition;
    private final CsvSchema schema;
    private final List<String> labels;
    private final DpSgd dpSgd;
    private final ElementRandomness randomness;

    /**
     * @param pattern the training files (a file name or a glob; each file starts with the header)
     * @param partition the keyed hash assigning each record to one of the K teachers
     * @param schema the training file's schema
     * @param labels the classes, sorted; a record's class is its label's index
     * @param dpSgd DP-SGD for private teachers, or null for non-private ones
     * @param randomness DP-SGD's randomness (per teacher)
     */
    public Teachers(String pattern, TeacherPartition partition, CsvSchema schema,
        List<String> labels, DpSgd dpSgd, ElementRandomness randomness) {
      this.pattern = Require.nonNull("pattern", pattern);
      this.partition = Require.nonNull("partition", partition);
      this.schema = Require.nonNull("schema", schema);
      this.labels = List.copyOf(labels);
      this.dpSgd = dpSgd;
      this.randomness = Require.nonNull("randomness", randomness);
    }

    @Override
    public PCollectionView<Map<Integer, TeacherModel>> expand(PBegin begin) {
      return begin
          .apply("ReadTrain", TextIO.read().from(pattern).withSkipHeaderLines(1))
          .apply("Train", new TrainTeachers(partition, schema, labels, dpSgd, randomness))
          .apply("Models", View.asMap());
    }
  }

  /**
   * Query CSV (a header, an {@code id} column and the training features) to (id, class index):
   * the teachers' votes per query, aggregated per query by {@code majority}.
   */
  public static final class Labels extends PTransform<PBegin, PCollection<KV<String, Integer>>> {

    private static final long serialVersionUID = 1L;

    private final String pattern;
    private final CsvSchema schema;
    private final int teachers;
    private final PCollectionView<Map<Integer, TeacherModel>> models;
    private final PTransform<PCollection<KV<String, int[]>>, PCollection<KV<String, Integer>>>
        majority;

    /**
     * @param pattern the query files (a file name or a glob; each file starts with the header)
     * @param schema the query file's schema
     * @param teachers K
     * @param models the output of {@link Teachers}
     * @param majority the aggregation of one query's K votes: the run's private majority
     *     ({@code PrivateMajority.byId()}); a non-private majority only for a reference figure
     *     that is never released
     */
    public Labels(String pattern, CsvSchema schema, int teachers,
        PCollectionView<Map<Integer, TeacherModel>> models,
        PTransform<PCollection<KV<String, int[]>>, PCollection<KV<String, Integer>>> majority) {
      this.pattern = Require.nonNull("pattern", pattern);
      this.schema = Require.nonNull("schema", schema);
      this.teachers = Require.positive("teachers", teachers);
      this.models = Require.nonNull("models", models);
      this.majority = Require.nonNull("majority", majority);
    }

    @Override
    public PCollection<KV<String, Integer>> expand(PBegin begin) {
      return begin
          .apply("ReadQueries", new ReadCsvLines(pattern, models,
              ReadCsvLines.DEFAULT_RANGE_BYTES))
          .apply("Votes", new VoteQueries(schema, teachers, models))
          .apply("Majority", majority);
    }
  }

  /**
   * (id, class index) to CSV shards {@code PREFIX-*.csv} with the header {@code id,label}, the
   * class written as the training data's own label value; counts the labels in the
   * {@link #LABELS_COUNTER} metric.
   */
  public static final class WriteLabels extends PTransform<PCollection<KV<String, Integer>>, PDone> {

    private static final long serialVersionUID = 1L;

    private final List<String> classes;
    private final String prefix;

    /**
     * @param classes the label values, indexed by class
     * @param prefix where the shards go (a path and file-name prefix)
     */
    public WriteLabels(List<String> classes, String prefix) {
      this.classes = List.copyOf(classes);
      this.prefix = Require.nonNull("prefix", prefix);
    }

    @Override
    public PDone expand(PCollection<KV<String, Integer>> labels) {
      return labels.apply("Write", new WriteBundles(classes, prefix));
    }
  }
}
