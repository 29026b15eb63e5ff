package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.learning.data.MulticlassData;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * Training records (CSV lines) to K teachers: each line goes to one partition by the keyed hash of
 * {@link TeacherPartition} (of its id cell when the training file has the id column, else of the
 * whole line), the partitions are grouped, and each teacher trains as one element of a
 * {@code ParDo}, on its own partition only ({@link PartitionTrainer}). Every one of the K
 * partitions is trained, an empty one on no rows: whether a partition is empty depends on the
 * data, so it must not fail the run.
 *
 * <p>A teacher skips the rows it cannot read (a cell count other than the header's, unbalanced
 * quotes) and the rows whose label is not one of the public classes ({@link ClassSet}); a
 * sensitive row can neither fail the run nor be refused. A partition's rows are sorted before
 * training, so the teacher does not depend on the order a runner delivers them in; with seeded
 * randomness a teacher is then the same on every runner.
 */
public final class TrainTeachers
    extends PTransform<PCollection<String>, PCollection<KV<Integer, TeacherModel>>> {

  private static final long serialVersionUID = 1L;

  /** The element that makes every partition exist; never a training line (those are not blank). */
  private static final String PRESENT = "";

  private final TeacherPartition partition;
  private final CsvSchema schema;
  private final ClassSet classes;
  private final Featurizer featurizer;
  private final PartitionTrainer trainer;
  private final ElementRandomness randomness;

  /**
   * @param partition the keyed hash assigning each record to one of the K teachers
   * @param schema the training file's schema
   * @param classes the public classes; a record's class is its label's index
   * @param featurizer the features a teacher sees
   * @param trainer how each teacher is trained
   * @param randomness the teachers' randomness (one stream per teacher)
   */
  public TrainTeachers(TeacherPartition partition, CsvSchema schema, ClassSet classes,
      Featurizer featurizer, PartitionTrainer trainer, ElementRandomness randomness) {
    this.partition = Require.nonNull("partition", partition);
    this.schema = Require.nonNull("schema", schema);
    this.classes = Require.nonNull("classes", classes);
    this.featurizer = Require.nonNull("featurizer", featurizer);
    this.trainer = Require.nonNull("trainer", trainer);
    this.randomness = Require.nonNull("randomness", randomness);
  }

  @Override
  public PCollection<KV<Integer, TeacherModel>> expand(PCollection<String> lines) {
    KvCoder<Integer, String> coder = KvCoder.of(VarIntCoder.of(), StringUtf8Coder.of());
    PCollection<KV<Integer, String>> records = lines
        .apply("NonBlank", Filter.by((String line) -> !line.isBlank()))
        .apply("Partition", ParDo.of(new PartitionFn(partition, schema)))
        .setCoder(coder);
    PCollection<KV<Integer, String>> every = lines.getPipeline().apply("EveryPartition",
        Create.of(IntStream.range(0, partition.teachers()).mapToObj(k -> KV.of(k, PRESENT))
            .toList()).withCoder(coder));
    return PCollectionList.of(records).and(every)
        .apply("WithEveryPartition", Flatten.pCollections())
        .apply("GroupPartitions", GroupByKey.create())
        .apply("Train", ParDo.of(new TrainFn(schema, classes, featurizer, trainer, randomness)))
        .setCoder(KvCoder.of(VarIntCoder.of(), SerializableCoder.of(TeacherModel.class)));
  }

  private static final class PartitionFn extends DoFn<String, KV<Integer, String>> {
    private static final long serialVersionUID = 1L;
    private final TeacherPartition partition;
    private final CsvSchema schema;

    PartitionFn(TeacherPartition partition, CsvSchema schema) {
      this.partition = partition;
      this.schema = schema;
    }

    @ProcessElement
    public void process(@Element String line, OutputReceiver<KV<Integer, String>> out) {
      out.output(KV.of(partition.of(schema.partitionKey(line)), line));
    }
  }

  private static final class TrainFn
      extends DoFn<KV<Integer, Iterable<String>>, KV<Integer, TeacherModel>> {
    private static final long serialVersionUID = 1L;
    private final CsvSchema schema;
    private final ClassSet classes;
    private final Featurizer featurizer;
    private final PartitionTrainer trainer;
    private final ElementRandomness randomness;

    TrainFn(CsvSchema schema, ClassSet classes, Featurizer featurizer, PartitionTrainer trainer,
        ElementRandomness randomness) {
      this.schema = schema;
      this.classes = classes;
      this.featurizer = featurizer;
      this.trainer = trainer;
      this.randomness = randomness;
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<String>> shard,
        OutputReceiver<KV<Integer, TeacherModel>> out) {
      List<String> lines = new ArrayList<>();
      for (String line : shard.getValue()) {
        if (!line.equals(PRESENT)) {
          lines.add(line);
        }
      }
      out.output(KV.of(shard.getKey(), teacher(shard.getKey(), lines, schema, classes,
          featurizer, trainer, randomness)));
    }
  }

  /**
   * One teacher as the pipeline trains it: its partition's lines sorted, the readable rows whose
   * label is a class mapped to features, and the trainer run on them with the teacher's own
   * randomness.
   */
  static TeacherModel teacher(int teacher, List<String> lines, CsvSchema schema,
      ClassSet classes, Featurizer featurizer, PartitionTrainer trainer,
      ElementRandomness randomness) {
    List<String> sorted = new ArrayList<>(lines);
    sorted.sort(null);
    ClassSet.Lookup lookup = classes.lookup();
    List<double[]> x = new ArrayList<>();
    List<Integer> y = new ArrayList<>();
    for (String line : sorted) {
      CsvSchema.Row row = schema.parseOrSkip(line);
      int c = row == null ? -1 : lookup.classOf(row.key());
      if (c >= 0) {
        x.add(featurizer.features(row.features()));
        y.add(c);
      }
    }
    int d = featurizer.dimension(schema.dimension());
    double[] flat = new double[x.size() * d];
    for (int i = 0; i < x.size(); i++) {
      System.arraycopy(x.get(i), 0, flat, i * d, d);
    }
    MulticlassData rows = new MulticlassData(classes.size(), d, flat,
        y.stream().mapToInt(Integer::intValue).toArray());
    return trainer.train(teacher, rows, randomness.forElement("teacher", teacher));
  }
}
