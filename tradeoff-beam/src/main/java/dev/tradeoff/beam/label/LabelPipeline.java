package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.random.ElementRandomness;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * The transforms of the labelling job (PATE-style knowledge transfer with a private majority per
 * query, [DaRRM24, Section 6.2]), from which {@code tradeoff label} ({@link LabelJob}) and the
 * paper's experiment ({@code tradeoff predict}) both build their pipelines:
 *
 * <ol>
 *   <li>{@link Teachers}: training CSV lines read in byte ranges of the pinned files
 *       ({@link ReadCsvLines}), each to one of K partitions
 *       by a keyed hash, one teacher trained per partition ({@link TrainTeachers}), the K models as
 *       a side input;
 *   <li>{@link LabelShards}: query CSV lines read in byte ranges of the pinned files once the
 *       models are ready ({@link ReadCsvLines}), the K teachers' votes per query, the private
 *       majority per query, and the labels as {@code id,label} CSV shards through Beam's file
 *       systems, in one step per range.
 * </ol>
 *
 * <p>{@link LabelShards} reads, votes, labels and writes in one step per range of the query
 * files, so that no runner holds the queries in memory.
 *
 * <p>Records reach the pipeline only through these reads, never from the driver's memory, so the
 * same pipeline runs on workers that share no disk with the driver.
 */
public final class LabelPipeline {

  private LabelPipeline() {}

  /**
   * Training CSV (a header, a label column and features) to the K trained teachers' models, keyed
   * by teacher index, as a side input.
   */
  public static final class Teachers
      extends PTransform<PBegin, PCollectionView<Map<Integer, TeacherModel>>> {

    private static final long serialVersionUID = 1L;

    private final List<ReadCsvLines.PinnedFile> files;
    private final TeacherPartition partition;
    private final CsvSchema schema;
    private final ClassSet classes;
    private final Featurizer featurizer;
    private final PartitionTrainer trainer;
    private final ElementRandomness randomness;

    /**
     * @param files the training files as pinned by the plan (each starts with the header)
     * @param partition the keyed hash assigning each record to one of the K teachers
     * @param schema the training file's schema
     * @param classes the public classes; a record's class is its label's index
     * @param featurizer the features a teacher sees
     * @param trainer how each teacher is trained
     * @param randomness the teachers' randomness (per teacher)
     */
    public Teachers(List<ReadCsvLines.PinnedFile> files, TeacherPartition partition,
        CsvSchema schema, ClassSet classes, Featurizer featurizer, PartitionTrainer trainer,
        ElementRandomness randomness) {
      this.files = List.copyOf(files);
      this.partition = Require.nonNull("partition", partition);
      this.schema = Require.nonNull("schema", schema);
      this.classes = Require.nonNull("classes", classes);
      this.featurizer = Require.nonNull("featurizer", featurizer);
      this.trainer = Require.nonNull("trainer", trainer);
      this.randomness = Require.nonNull("randomness", randomness);
    }

    @Override
    public PCollectionView<Map<Integer, TeacherModel>> expand(PBegin begin) {
      return begin
          .apply("TrainRanges", new ReadCsvLines.Ranges(files, null,
              ReadCsvLines.DEFAULT_RANGE_BYTES))
          .apply("ReadTrain", ParDo.of(new ReadLinesFn()))
          .setCoder(StringUtf8Coder.of())
          .apply("Train", new TrainTeachers(partition, schema, classes, featurizer, trainer,
              randomness))
          .apply("Models", View.asMap());
    }
  }

  /** The non-blank data lines of each range. */
  private static final class ReadLinesFn extends DoFn<ReadCsvLines.FileRange, String> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void process(@Element ReadCsvLines.FileRange range, OutputReceiver<String> out)
        throws IOException {
      ReadCsvLines.forEachLine(range, out::output);
    }
  }
}
