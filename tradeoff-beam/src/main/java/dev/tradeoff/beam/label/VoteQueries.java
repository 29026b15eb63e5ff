package dev.tradeoff.beam.label;

import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import dev.tradeoff.beam.coder.IntArrayCoder;

/**
 * Query rows (CSV lines) to (id, the K teachers' votes), the K models arriving as a side input.
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
        .apply("NonBlank", Filter.by((String line) -> !line.isBlank()))
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
      if (cached == null) {
        Map<Integer, TeacherModel> byIndex = context.sideInput(models);
        TeacherModel[] m = new TeacherModel[teachers];
        for (int k = 0; k < teachers; k++) {
          m[k] = byIndex.get(k);
          if (m[k] == null) {
            throw new IllegalStateException("teacher " + k + " was not trained: its partition "
                + "received no record");
          }
        }
        cached = m;
      }
      CsvSchema.Row row = schema.parse(line, "queries");
      double[] x = CsvSchema.unitWithBias(row.features());
      int[] votes = new int[teachers];
      for (int k = 0; k < teachers; k++) {
        votes[k] = cached[k].vote(x);
      }
      context.output(KV.of(row.key(), votes));
    }
  }
}
