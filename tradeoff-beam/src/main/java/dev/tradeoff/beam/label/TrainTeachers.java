package dev.tradeoff.beam.label;

import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.dpsgd.DpSgd;
import dev.tradeoff.learning.logistic.LogisticRegression;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Training records (CSV lines) to K teachers: each line goes to one partition by the keyed hash of
 * {@link TeacherPartition}, the partitions are grouped, and each teacher trains as one element of
 * a {@code ParDo}, on its own partition only. DaRRM's teachers are trained by DP-SGD (its
 * guarantee fixed beforehand in {@link LabelPrivacy}); GNMax's non-privately (one-vs-rest
 * L2-regularised logistic regression). A partition's records are sorted before training, so the
 * teacher does not depend on the order a runner delivers them in; with seeded randomness a teacher
 * is then the same on every runner.
 */
public final class TrainTeachers
    extends PTransform<PCollection<String>, PCollection<KV<Integer, TeacherModel>>> {

  private static final long serialVersionUID = 1L;

  /** λ of the non-private teachers' regulariser. */
  public static final double NON_PRIVATE_LAMBDA = 1e-2;

  /** The non-private solver's tolerance (a vote needs the sign of a margin, not 1e-8). */
  public static final double NON_PRIVATE_TOLERANCE = 1e-5;

  private final TeacherPartition partition;
  private final CsvSchema schema;
  private final List<String> labels;
  private final DpSgd dpSgd;
  private final ElementRandomness randomness;

  /**
   * @param labels the classes, sorted; a record's class is its label's index
   * @param dpSgd DP-SGD for private teachers, or null for non-private ones
   */
  public TrainTeachers(TeacherPartition partition, CsvSchema schema, List<String> labels,
      DpSgd dpSgd, ElementRandomness randomness) {
    this.partition = partition;
    this.schema = schema;
    this.labels = List.copyOf(labels);
    this.dpSgd = dpSgd;
    this.randomness = randomness;
  }

  @Override
  public PCollection<KV<Integer, TeacherModel>> expand(PCollection<String> lines) {
    TeacherPartition p = partition;
    return lines
        .apply("NonBlank", Filter.by((String line) -> !line.isBlank()))
        .apply("Partition", ParDo.of(new PartitionFn(p)))
        .setCoder(KvCoder.of(VarIntCoder.of(), StringUtf8Coder.of()))
        .apply("GroupPartitions", GroupByKey.create())
        .apply("Train", ParDo.of(new TrainFn(schema, labels, dpSgd, randomness)))
        .setCoder(KvCoder.of(VarIntCoder.of(), SerializableCoder.of(TeacherModel.class)));
  }

  private static final class PartitionFn extends DoFn<String, KV<Integer, String>> {
    private static final long serialVersionUID = 1L;
    private final TeacherPartition partition;

    PartitionFn(TeacherPartition partition) {
      this.partition = partition;
    }

    @ProcessElement
    public void process(@Element String line, OutputReceiver<KV<Integer, String>> out) {
      out.output(KV.of(partition.of(line), line));
    }
  }

  private static final class TrainFn
      extends DoFn<KV<Integer, Iterable<String>>, KV<Integer, TeacherModel>> {
    private static final long serialVersionUID = 1L;
    private final CsvSchema schema;
    private final List<String> labels;
    private final DpSgd dpSgd;
    private final ElementRandomness randomness;

    TrainFn(CsvSchema schema, List<String> labels, DpSgd dpSgd, ElementRandomness randomness) {
      this.schema = schema;
      this.labels = labels;
      this.dpSgd = dpSgd;
      this.randomness = randomness;
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<String>> shard,
        OutputReceiver<KV<Integer, TeacherModel>> out) {
      int teacher = shard.getKey();
      List<String> lines = new ArrayList<>();
      shard.getValue().forEach(lines::add);
      lines.sort(null);
      int d = schema.dimension() + 1;
      double[] features = new double[lines.size() * d];
      int[] classes = new int[lines.size()];
      for (int i = 0; i < lines.size(); i++) {
        CsvSchema.Row row = schema.parse(lines.get(i), "train (teacher " + teacher + ")");
        System.arraycopy(CsvSchema.unitWithBias(row.features()), 0, features, i * d, d);
        classes[i] = labels.indexOf(row.key());
        if (classes[i] < 0) {
          throw new IllegalStateException("train: label " + row.key() + " is not one of "
              + labels + " seen when the input was checked");
        }
      }
      out.output(KV.of(teacher, new TeacherModel(teacher, train(teacher, d, features,
          classes))));
    }

    private double[][] train(int teacher, int d, double[] features, int[] classes) {
      int vectors = labels.size() == 2 ? 1 : labels.size();
      double[][] weights = new double[vectors][];
      for (int c = 0; c < vectors; c++) {
        int positive = vectors == 1 ? 1 : c;
        int[] y = new int[classes.length];
        for (int i = 0; i < y.length; i++) {
          y[i] = classes[i] == positive ? 1 : 0;
        }
        Dataset data = Dataset.ofFlat(d, features, y);
        if (dpSgd != null) {
          RandomGenerator random = randomness.forElement("teacher-" + c, teacher);
          weights[c] = dpSgd.train(data, random).weights();
        } else {
          weights[c] = new LogisticRegression(NON_PRIVATE_LAMBDA, NON_PRIVATE_TOLERANCE,
              LogisticRegression.DEFAULT_MAX_ITERATIONS).fit(data).model().weights();
        }
      }
      return weights;
    }
  }
}
