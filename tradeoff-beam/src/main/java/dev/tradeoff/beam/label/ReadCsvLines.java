package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Reading the data lines of CSV files in byte ranges (each file's first line, its header,
 * skipped; blank lines skipped): {@link Ranges} matches the files with {@link FileIO} once a side
 * input is ready and cuts them into ranges of a fixed size, distributed over the workers;
 * {@link #forEachLine} reads one range.
 *
 * <p>Why not {@code TextIO.read()} for the queries: their votes need the teachers' models as a
 * side input, and a runner holds back every element that reaches a {@code ParDo} before its side
 * input is ready. With {@code TextIO.read()} the queries were read while the teachers trained, and
 * the DirectRunner held (and re-tried) all of them in memory until the models were ready. Here the
 * only element held back is the file pattern, and a worker reads one line of a range at a time.
 *
 * <p>A line belongs to the range in which its first byte lies; lines end at {@code \n},
 * {@code \r\n} or a lone {@code \r} (as {@link java.io.BufferedReader#readLine} reads them, like
 * the plan's count of the queries), so every line of every file is read exactly once, however the
 * files are cut.
 */
public final class ReadCsvLines {

  /** The default size of a range: 1 MiB, some ten thousand rows of a few features. */
  public static final long DEFAULT_RANGE_BYTES = 1 << 20;

  private ReadCsvLines() {}

  /**
   * The files' byte ranges, (file, [from, to)), matched once the side input is ready and
   * distributed over the workers ({@link Reshuffle}), for a transform that reads its ranges itself
   * ({@link #forEachLine}).
   */
  public static final class Ranges
      extends PTransform<PBegin, PCollection<KV<String, OffsetRange>>> {

    private static final long serialVersionUID = 1L;

    private final String pattern;
    private final PCollectionView<?> after;
    private final long rangeBytes;

    /**
     * @param pattern the files: a Beam file pattern (a file name or a glob)
     * @param after the side input that must be ready before any file is matched
     * @param rangeBytes the size of a range, at least 1
     */
    public Ranges(String pattern, PCollectionView<?> after, long rangeBytes) {
      this.pattern = Require.nonNull("pattern", pattern);
      this.after = Require.nonNull("after", after);
      this.rangeBytes = Require.positive("rangeBytes", rangeBytes);
    }

    @Override
    public PCollection<KV<String, OffsetRange>> expand(PBegin begin) {
      return begin
          .apply("Pattern", Create.of(pattern).withCoder(StringUtf8Coder.of()))
          .apply("Await", ParDo.of(new AwaitFn(after)).withSideInputs(after))
          .apply("Match", FileIO.matchAll()
              .withEmptyMatchTreatment(EmptyMatchTreatment.DISALLOW))
          .apply("Split", ParDo.of(new SplitFn(rangeBytes)))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), OffsetRange.Coder.of()))
          .apply("Distribute", Reshuffle.viaRandomKey());
    }
  }

  /**
   * Reads the non-blank data lines of one range of a file (see the class comment for which lines
   * belong to it).
   *
   * @param file the file, as a Beam resource name
   * @param range its byte range
   * @param lines receives each line
   */
  public static void forEachLine(String file, OffsetRange range, Consumer<String> lines)
      throws IOException {
    try (ReadableByteChannel channel = FileSystems.open(
        FileSystems.matchNewResource(file, false))) {
      readRange(channel, range.getFrom(), range.getTo(), line -> {
        if (!line.isBlank()) {
          lines.accept(line);
        }
      });
    }
  }

  /** Passes its element on once the side input is ready (the runner holds it back until then). */
  private static final class AwaitFn extends DoFn<String, String> {
    private static final long serialVersionUID = 1L;
    private final PCollectionView<?> after;

    AwaitFn(PCollectionView<?> after) {
      this.after = after;
    }

    @ProcessElement
    public void process(ProcessContext context) {
      context.sideInput(after);
      context.output(context.element());
    }
  }

  private static final class SplitFn extends DoFn<MatchResult.Metadata, KV<String, OffsetRange>> {
    private static final long serialVersionUID = 1L;
    private final long rangeBytes;

    SplitFn(long rangeBytes) {
      this.rangeBytes = rangeBytes;
    }

    @ProcessElement
    public void process(@Element MatchResult.Metadata file,
        OutputReceiver<KV<String, OffsetRange>> out) {
      if (file.resourceId().isDirectory()) {
        return;
      }
      String name = file.resourceId().toString();
      long size = file.sizeBytes();
      for (long start = 0; start < size; start += rangeBytes) {
        out.output(KV.of(name, new OffsetRange(start, Math.min(size, start + rangeBytes))));
      }
    }
  }

  /**
   * The lines of {@code channel} (positioned at its start) whose first byte lies in [start, end),
   * but for the file's first line (the header); blank lines included.
   */
  static void readRange(ReadableByteChannel channel, long start, long end, Consumer<String> lines)
      throws IOException {
    Bytes in = new Bytes(channel);
    if (start > 0) {
      in.seek(start - 1);
      int before = in.next();
      if (before == '\r') {
        in.skipIf('\n');
      } else if (before != '\n' && before >= 0) {
        in.line();
      }
    } else {
      in.line();
    }
    while (in.position() < end) {
      String line = in.line();
      if (line == null) {
        return;
      }
      lines.accept(line);
    }
  }

  /** A buffered reader of bytes that knows its position in the file. */
  private static final class Bytes {
    private final ReadableByteChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private long position;
    private byte[] line = new byte[256];

    Bytes(ReadableByteChannel channel) {
      this.channel = channel;
      buffer.flip();
    }

    long position() {
      return position;
    }

    void seek(long to) throws IOException {
      if (channel instanceof SeekableByteChannel seekable) {
        seekable.position(to);
        buffer.clear().flip();
        position = to;
      } else {
        while (position < to && next() >= 0) {
          // skip
        }
      }
    }

    int peek() throws IOException {
      if (!buffer.hasRemaining()) {
        buffer.clear();
        int n;
        do {
          n = channel.read(buffer);
        } while (n == 0);
        buffer.flip();
        if (n < 0) {
          return -1;
        }
      }
      return buffer.get(buffer.position()) & 0xff;
    }

    int next() throws IOException {
      int b = peek();
      if (b >= 0) {
        buffer.get();
        position++;
      }
      return b;
    }

    void skipIf(int b) throws IOException {
      if (peek() == b) {
        next();
      }
    }

    /** The line from here to its end (consumed), or null at the end of the file. */
    String line() throws IOException {
      int n = 0;
      int b = next();
      if (b < 0) {
        return null;
      }
      while (b >= 0 && b != '\n' && b != '\r') {
        if (n == line.length) {
          line = Arrays.copyOf(line, 2 * n);
        }
        line[n++] = (byte) b;
        b = next();
      }
      if (b == '\r') {
        skipIf('\n');
      }
      return new String(line, 0, n, StandardCharsets.UTF_8);
    }
  }
}
