package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Writes (id, class index) pairs as {@code id,label} CSV shards, one shard per bundle, through
 * Beam's {@link FileSystems} (so the directory may be on any file system Beam has, shared by the
 * workers), and lists the shards of the bundles that completed in a small {@link TextIO} output:
 * only listed shards are results, so a shard left by a failed bundle attempt that a runner retried
 * is never committed ({@link #completedShards}).
 *
 * <p>Why not {@code TextIO.write()} for the labels themselves: on the DirectRunner every
 * {@code WriteFiles} is replaced by a sharded write that first counts the records (a side input
 * for which every record waits, in memory) and then groups them by shard (a {@code GroupByKey} the
 * DirectRunner holds in memory), so the heap grew with the number of queries. Writing per bundle
 * holds one line at a time on every runner.
 *
 * <p>Shards are named {@code PREFIX-UUID.csv}; the list is {@code PREFIX.shards-*.txt}, one shard
 * path per line. Counts the labels written in the counter {@link LabelPipeline#LABELS_COUNTER} of
 * namespace {@link LabelPipeline}.
 */
final class WriteBundles extends PTransform<PCollection<KV<String, Integer>>, PDone> {

  private static final long serialVersionUID = 1L;

  /** The header of every shard. */
  static final String HEADER = "id,label";

  private final List<String> classes;
  private final String prefix;

  /**
   * @param classes the label values, indexed by class
   * @param prefix the shards' path prefix (a directory and the start of a file name)
   */
  WriteBundles(List<String> classes, String prefix) {
    this.classes = List.copyOf(classes);
    this.prefix = Require.nonNull("prefix", prefix);
  }

  @Override
  public PDone expand(PCollection<KV<String, Integer>> labels) {
    return listShards(labels.apply("WriteShards", ParDo.of(new ShardFn(classes, prefix))),
        prefix);
  }

  /**
   * Lists the shard paths (one per completed bundle) in {@code PREFIX.shards-*.txt} with
   * {@link TextIO}, for {@link #completedShards}.
   */
  static PDone listShards(PCollection<String> paths, String prefix) {
    return paths.setCoder(StringUtf8Coder.of())
        .apply("ListShards", TextIO.write().to(list(prefix)).withSuffix(".txt")
            .withNumShards(1));
  }

  private static String list(String prefix) {
    return prefix + ".shards";
  }

  /**
   * The shards written by the bundles that completed, sorted; read after the pipeline finished.
   *
   * @param prefix the prefix given to the transform
   */
  static List<String> completedShards(String prefix) throws IOException {
    List<String> shards = new ArrayList<>();
    MatchResult match = FileSystems.match(list(prefix) + "-*", EmptyMatchTreatment.ALLOW);
    for (MatchResult.Metadata m : match.metadata()) {
      try (BufferedReader in = CsvInput.open(m.resourceId().toString())) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (!line.isEmpty()) {
            shards.add(line);
          }
        }
      }
    }
    shards.sort(null);
    return shards;
  }

  /**
   * One shard being written: {@code PREFIX-UUID.csv}, created at the first label, starting with
   * the header. Not thread-safe (one per bundle).
   */
  static final class Shard {
    private final String prefix;
    private final String[] quoted;
    private Writer out;
    private String path;
    private long lines;

    /**
     * @param prefix the shards' path prefix
     * @param classes the label values, indexed by class
     */
    Shard(String prefix, List<String> classes) {
      this.prefix = prefix;
      this.quoted = classes.stream().map(CsvLine::quote).toArray(String[]::new);
    }

    /** Writes one label (opening the shard first if this is its first label). */
    void write(String id, int label) {
      try {
        if (out == null) {
          path = prefix + "-" + UUID.randomUUID() + ".csv";
          out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(
              FileSystems.create(FileSystems.matchNewResource(path, false), "text/csv")),
              StandardCharsets.UTF_8), 1 << 16);
          out.write(HEADER);
          out.write('\n');
        }
        out.write(CsvLine.quote(id));
        out.write(',');
        out.write(quoted[label]);
        out.write('\n');
        lines++;
      } catch (IOException e) {
        throw new UncheckedIOException("writing " + path + " failed: " + e.getMessage(), e);
      }
    }

    /** The labels written so far. */
    long lines() {
      return lines;
    }

    /**
     * Closes the shard.
     *
     * @return its path, or null if nothing was written (no file)
     */
    String close() {
      if (out == null) {
        return null;
      }
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("writing " + path + " failed: " + e.getMessage(), e);
      }
      out = null;
      return path;
    }
  }

  private static final class ShardFn extends DoFn<KV<String, Integer>, String> {
    private static final long serialVersionUID = 1L;
    private final List<String> classes;
    private final String prefix;
    private final Counter written = Metrics.counter(LabelPipeline.class,
        LabelPipeline.LABELS_COUNTER);
    private transient Shard shard;

    ShardFn(List<String> classes, String prefix) {
      this.classes = classes;
      this.prefix = prefix;
    }

    @StartBundle
    public void start() {
      shard = new Shard(prefix, classes);
    }

    @ProcessElement
    public void process(@Element KV<String, Integer> label) {
      shard.write(label.getKey(), label.getValue());
    }

    @FinishBundle
    public void finish(FinishBundleContext context) {
      String path = shard.close();
      if (path != null) {
        written.inc(shard.lines());
        context.output(path, GlobalWindow.INSTANCE.maxTimestamp(), GlobalWindow.INSTANCE);
      }
    }

    @Teardown
    public void teardown() {
      if (shard != null) {
        shard.close();
      }
    }
  }
}
