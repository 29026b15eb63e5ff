package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Writes text lines as CSV shards, one shard per bundle, through Beam's {@link FileSystems} (so
 * the directory may be on any file system Beam has, shared by the workers), and lists the shards
 * of the bundles that completed in a small {@link TextIO} output: only the listed shards are
 * results; a shard of a failed bundle attempt that a runner retried is not listed.
 *
 * <p>Why not {@code TextIO.write()} for the lines themselves: every {@code WriteFiles} groups its
 * records by shard on the DirectRunner (it replaces runner-determined sharding with a count of the
 * records held as a side input, then a {@code GroupByKey}), and the DirectRunner holds a whole
 * {@code GroupByKey} in memory, so its heap grew with the number of records. Writing per bundle
 * holds one line at a time on every runner.
 *
 * <p>Shards are named {@code PREFIX-UUID.csv} and start with the header; the list is written to
 * {@code LIST-*.txt}, one shard path per line. The caller moves the listed shards into place.
 */
final class WriteBundles extends PTransform<PCollection<String>, PDone> {

  private static final long serialVersionUID = 1L;

  private final String prefix;
  private final String header;
  private final String list;

  /**
   * @param prefix the shards' path prefix (a directory and a file name start)
   * @param header the first line of every shard
   * @param list the path prefix of the list of completed shards
   */
  WriteBundles(String prefix, String header, String list) {
    this.prefix = Require.nonNull("prefix", prefix);
    this.header = Require.nonNull("header", header);
    this.list = Require.nonNull("list", list);
  }

  @Override
  public PDone expand(PCollection<String> lines) {
    return lines.apply("WriteShards", ParDo.of(new ShardFn(prefix, header)))
        .setCoder(StringUtf8Coder.of())
        .apply("ListShards", TextIO.write().to(list).withSuffix(".txt").withNumShards(1));
  }

  /** The number of lines written, a counter of {@link LabelJob}. */
  static final String WRITTEN = "labels";

  private static final class ShardFn extends DoFn<String, String> {
    private static final long serialVersionUID = 1L;
    private final String prefix;
    private final String header;
    private final Counter written = Metrics.counter(LabelJob.class, WRITTEN);
    private transient Writer out;
    private transient String path;

    ShardFn(String prefix, String header) {
      this.prefix = prefix;
      this.header = header;
    }

    @StartBundle
    public void start() {
      out = null;
      path = null;
    }

    @ProcessElement
    public void process(@Element String line) throws IOException {
      if (out == null) {
        path = prefix + "-" + UUID.randomUUID() + ".csv";
        out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(
            FileSystems.create(FileSystems.matchNewResource(path, false), "text/csv")),
            StandardCharsets.UTF_8), 1 << 16);
        out.write(header);
        out.write('\n');
      }
      out.write(line);
      out.write('\n');
      written.inc();
    }

    @FinishBundle
    public void finish(FinishBundleContext context) {
      if (out == null) {
        return;
      }
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("writing " + path + " failed: " + e.getMessage(), e);
      }
      context.output(path, GlobalWindow.INSTANCE.maxTimestamp(), GlobalWindow.INSTANCE);
      out = null;
    }

    @Teardown
    public void teardown() throws IOException {
      if (out != null) {
        out.close();
      }
    }
  }
}
