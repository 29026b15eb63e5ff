package dev.tradeoff.beam.budget;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * CSV shards that say how many records they hold: each writer ({@link Shard}) creates one
 * {@code PREFIX-UUID.csv}, and when it completes, the step that wrote it emits a listing entry
 * (its path and record count, {@link #entry}); {@link #listing} writes those entries as one file.
 * Only listed shards are results ({@link #completed}): a shard whose bundle failed and was retried
 * is never listed, so a committer ({@link RunOutput#commit}) sees each record exactly once and can
 * compare the total with what was planned and charged before releasing anything.
 */
public final class CountedShards {

  private CountedShards() {}

  /** A completed shard: its path and its number of records (its header not counted). */
  public record Completed(String path, long records) {}

  /** The listing entry of a completed shard (what the writing step outputs). */
  public static String entry(String path, long records) {
    return path + "\t" + records;
  }

  /**
   * Writes the listing entries of the shards under {@code prefix} as one listing file (the
   * entries' coder must be set, e.g. inferred as {@code StringUtf8Coder} from a {@code DoFn}'s
   * output type).
   */
  public static PTransform<PCollection<String>, PDone> listing(String prefix) {
    return new PTransform<>() {
      private static final long serialVersionUID = 1L;

      @Override
      public PDone expand(PCollection<String> entries) {
        return entries.apply(TextIO.write().to(listingPrefix(prefix)).withSuffix(".txt").withNumShards(1));
      }
    };
  }

  /**
   * The completed shards under {@code prefix}, sorted by path; read after the pipeline finished.
   *
   * @throws IOException if the listing cannot be read
   */
  public static List<Completed> completed(String prefix) throws IOException {
    List<Completed> shards = new ArrayList<>();
    MatchResult match = FileSystems.match(listingPrefix(prefix) + "-*", EmptyMatchTreatment.ALLOW);
    for (MatchResult.Metadata m : match.metadata()) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          Channels.newInputStream(FileSystems.open(m.resourceId())), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (!line.isEmpty()) {
            int tab = line.lastIndexOf('\t');
            shards.add(new Completed(line.substring(0, tab),
                Long.parseLong(line.substring(tab + 1))));
          }
        }
      }
    }
    shards.sort(Comparator.comparing(Completed::path));
    return shards;
  }

  private static String listingPrefix(String prefix) {
    return prefix + ".shards";
  }

  /**
   * One shard being written: {@code PREFIX-UUID.csv}, created at the first record and starting
   * with the header. Not thread-safe (one per bundle or element).
   */
  public static final class Shard {
    private final String prefix;
    private final String header;
    private Writer out;
    private String path;
    private long records;

    /**
     * @param prefix the shards' path prefix ({@link RunOutput#prefix})
     * @param header the CSV header line, without its newline
     */
    public Shard(String prefix, String header) {
      this.prefix = prefix;
      this.header = header;
    }

    /**
     * Starts one record (opening the shard first if this is its first) and returns the writer to
     * write it to, newline included.
     */
    public Writer record() {
      try {
        if (out == null) {
          path = prefix + "-" + UUID.randomUUID() + ".csv";
          out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(
              FileSystems.create(FileSystems.matchNewResource(path, false), "text/csv")),
              StandardCharsets.UTF_8), 1 << 16);
          out.write(header);
          out.write('\n');
        }
        records++;
        return out;
      } catch (IOException e) {
        throw new UncheckedIOException("writing " + path + " failed: " + e.getMessage(), e);
      }
    }

    /** The records started so far. */
    public long records() {
      return records;
    }

    /**
     * Closes the shard.
     *
     * @return its listing entry, or null if nothing was written (no file)
     */
    public String close() {
      if (out == null) {
        return null;
      }
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("writing " + path + " failed: " + e.getMessage(), e);
      }
      out = null;
      return entry(path, records);
    }
  }
}
