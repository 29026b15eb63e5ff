package dev.tradeoff.beam.label;

import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import dev.tradeoff.beam.coder.IntArrayCoder;

/**
 * Query rows (CSV lines; blank lines are skipped) to (id, the K teachers' votes), the K models
 * arriving as a side input (read once per DoFn instance).
 * Nothing here is private: the votes are the input of the private majority.
 */
public final class VoteQueries
    extends PTransform<PCollection<String>, PCollection<KV<String, int[]>>> {

  private static final long serialVersionUID = 1L;

  private final CsvSchema schema;
  private final int teachers;
  private final PCollectionView<Map<Integer, TeacherModel>> models;

  public VoteQueries(CsvSchema schema, int teachers,
      PCollectionView<Map<Integer, TeacherModel>> models) {
    this.schema = schema;
    this.teachers = teachers;
    this.models = models;
  }

  @Override
  public PCollection<KV<String, int[]>> expand(PCollection<String> lines) {
    return lines
        .apply("Vote", ParDo.of(new VoteFn(schema, teachers, models)).withSideInputs(models))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), IntArrayCoder.of()));
  }

  private static final class VoteFn extends DoFn<String, KV<String, int[]>> {
    private static final long serialVersionUID = 1L;
    private final CsvSchema schema;
    private final int teachers;
    private final PCollectionView<Map<Integer, TeacherModel>> models;
    private transient TeacherModel[] cached;

    VoteFn(CsvSchema schema, int teachers, PCollectionView<Map<Integer, TeacherModel>> models) {
      this.schema = schema;
      this.teachers = teachers;
      this.models = models;
    }

    @ProcessElement
    public void process(@Element String line, ProcessContext context) {
      if (line.isBlank()) {
        return;
      }
      if (cached == null) {
        cached = models(context.sideInput(models), teachers);
      }
      CsvSchema.Row row = schema.parse(line, "queries");
      context.output(KV.of(row.key(), votes(cached, row)));
    }
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
        throw new IllegalStateException("teacher " + k + " was not trained: its partition "
            + "received no record");
      }
    }
    return m;
  }

  /** The K teachers' votes on one parsed query row. */
  static int[] votes(TeacherModel[] models, CsvSchema.Row row) {
    double[] x = CsvSchema.unitWithBias(row.features());
    int[] votes = new int[models.length];
    for (int k = 0; k < models.length; k++) {
      votes[k] = models[k].vote(x);
    }
    return votes;
  }
}
