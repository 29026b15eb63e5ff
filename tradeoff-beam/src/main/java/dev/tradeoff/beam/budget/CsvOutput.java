package dev.tradeoff.beam.budget;

import java.io.IOException;
import java.io.Writer;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Writes rows of CSV text as {@link CountedShards}, one shard per bundle, and lists the completed
 * ones: a bundle that fails is retried and its partial shard never listed, so the listing counts
 * each row once.
 */
final class CsvOutput extends PTransform<PCollection<String>, PDone> {

  private static final long serialVersionUID = 1L;

  private final String prefix;
  private final String header;

  /**
   * @param prefix where the shards go ({@link RunOutput#prefix})
   * @param header the CSV header line, without its newline
   */
  CsvOutput(String prefix, String header) {
    this.prefix = prefix;
    this.header = header;
  }

  @Override
  public PDone expand(PCollection<String> rows) {
    return rows.apply("WriteShards", ParDo.of(new WriteFn(prefix, header)))
        .apply("ListShards", CountedShards.listing(prefix));
  }

  private static final class WriteFn extends DoFn<String, String> {
    private static final long serialVersionUID = 1L;
    private final String prefix;
    private final String header;
    private transient CountedShards.Shard shard;

    WriteFn(String prefix, String header) {
      this.prefix = prefix;
      this.header = header;
    }

    @StartBundle
    public void start() {
      shard = new CountedShards.Shard(prefix, header);
    }

    @ProcessElement
    public void process(@Element String row) throws IOException {
      Writer out = shard.record();
      out.write(row);
      out.write('\n');
    }

    @FinishBundle
    public void finish(FinishBundleContext context) {
      String entry = shard.close();
      if (entry != null) {
        context.output(entry, GlobalWindow.INSTANCE.maxTimestamp(), GlobalWindow.INSTANCE);
      }
    }

    @Teardown
    public void teardown() {
      if (shard != null) {
        shard.close(); // a failed bundle's shard: closed, never listed
      }
    }
  }
}
