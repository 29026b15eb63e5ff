package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.Compression;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Reading the data lines of CSV files in byte ranges (each file's first line, its header,
 * skipped; blank lines skipped): {@link Ranges} cuts the files pinned by the plan
 * ({@link PinnedFile}: a path and the size it had then) into ranges of a fixed size, distributed
 * over the workers, once a side input is ready; {@link #forEachLine} reads one range.
 *
 * <p>Only the pinned files are read, and of each only its first {@link PinnedFile#size()} bytes
 * (for a compressed file, its first {@code size} compressed bytes, decompressed):
 * rows appended to a file, or a shard added to a directory or glob, after the plan counted the
 * rows are never read, so a run never processes more rows than it planned (and charged) for. A
 * file that shrank below its pinned size fails the read.
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

  /** The longest line read: 16 MiB (a longer one is not a CSV row; it would fill the heap). */
  static final int MAX_LINE_BYTES = 1 << 24;

  /** The default size of a range: 1 MiB, some ten thousand rows of a few features. */
  public static final long DEFAULT_RANGE_BYTES = 1 << 20;

  private ReadCsvLines() {}

  /**
   * The pinned files' byte ranges, cut once the side input (if any) is ready and distributed over the workers ({@link Reshuffle}), for a transform that reads its ranges itself
   * ({@link #forEachLine}).
   */
  public static final class Ranges
      extends PTransform<PBegin, PCollection<FileRange>> {

    private static final long serialVersionUID = 1L;

    private final List<PinnedFile> files;
    private final PCollectionView<?> after;
    private final long rangeBytes;

    /**
     * @param files the files as pinned by the plan
     * @param after the side input that must be ready before any file is read, or null to read at
     *     once
     * @param rangeBytes the size of a range, at least 1
     */
    public Ranges(List<PinnedFile> files, PCollectionView<?> after, long rangeBytes) {
      this.files = List.copyOf(files);
      Require.that(!this.files.isEmpty(), "files", "must hold at least one file", files);
      this.after = after;
      this.rangeBytes = Require.positive("rangeBytes", rangeBytes);
    }

    @Override
    public PCollection<FileRange> expand(PBegin begin) {
      PCollection<PinnedFile> pinned = begin.apply("Files", Create.of(files)
          .withCoder(SerializableCoder.of(PinnedFile.class)));
      if (after != null) {
        pinned = pinned.apply("Await", ParDo.of(new AwaitFn(after)).withSideInputs(after))
            .setCoder(SerializableCoder.of(PinnedFile.class));
      }
      return pinned
          .apply("Split", ParDo.of(new SplitFn(rangeBytes)))
          .setCoder(SerializableCoder.of(FileRange.class))
          .apply("Distribute", Reshuffle.viaRandomKey());
    }
  }

  /**
   * A file as the plan saw it: its path (a Beam resource name), its size then and how it is
   * compressed ({@link InputCompression}); only those bytes are ever read. A compressed file is
   * one range (it cannot be cut): its first {@code size} compressed bytes, decompressed.
   */
  public record PinnedFile(String path, long size, Compression compression)
      implements Serializable {
    public PinnedFile {
      Require.nonNull("path", path);
      Require.nonNegative("size", size);
      Require.that(InputCompression.READ.contains(compression), "compression",
          "must be one of " + InputCompression.READ, compression);
    }

    /** Whether the file is compressed (read whole, as one range). */
    public boolean compressed() {
      return compression != Compression.UNCOMPRESSED;
    }
  }

  /** The bytes [from, to) of a pinned file: the lines whose first byte lies there. */
  public record FileRange(PinnedFile file, long from, long to) implements Serializable {
    public FileRange {
      Require.nonNull("file", file);
      Require.that(0 <= from && from <= to && to <= file.size(), "range",
          "must lie in [0, " + file.size() + "]", "[" + from + ", " + to + ")");
    }
  }

  /**
   * Reads the non-blank data lines of one range of a pinned file (see the class comment for which
   * lines belong to it), never past the file's pinned size.
   *
   * @param range the file and its byte range
   * @param lines receives each line
   * @throws IllegalStateException if the file is now shorter than its pinned size
   */
  public static void forEachLine(FileRange range, Consumer<String> lines) throws IOException {
    readLines(range.file(), range.from(), range.to(), line -> {
      if (!line.isBlank()) {
        lines.accept(line);
      }
    });
  }

  /**
   * The lines of a pinned file whose first byte lies in [from, to), blank ones included, but for
   * its header; a compressed file is read whole (from its start to the end of its pinned
   * compressed bytes).
   */
  static void readLines(PinnedFile file, long from, long to, Consumer<String> lines)
      throws IOException {
    Require.that(!file.compressed() || from == 0, "from",
        "must be 0: a compressed file is read as one range", from);
    try (ReadableByteChannel channel = open(file)) {
      if (file.compressed()) {
        readRange(channel, 0, Long.MAX_VALUE, Long.MAX_VALUE, lines);
      } else {
        readRange(channel, from, to, file.size(), lines);
      }
    }
  }

  /**
   * Opens a pinned file: its bytes, or for a compressed file its first {@link PinnedFile#size()}
   * compressed bytes, decompressed (whatever was appended since the plan is never read).
   *
   * @throws IllegalStateException if it is now shorter than its pinned size (it was replaced or
   *     truncated since the plan)
   */
  static ReadableByteChannel open(PinnedFile file) throws IOException {
    ResourceId id = FileSystems.matchNewResource(file.path(), false);
    MatchResult.Metadata now = FileSystems.matchSingleFileSpec(file.path());
    if (now.sizeBytes() < file.size()) {
      throw new IllegalStateException(file.path() + " has " + now.sizeBytes() + " bytes, fewer "
          + "than the " + file.size() + " it had when the run was planned");
    }
    ReadableByteChannel raw = FileSystems.open(id);
    if (!file.compressed()) {
      return raw;
    }
    try {
      return file.compression().readDecompressed(new Bounded(raw, file.size()));
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /**
   * The first line of a pinned file (its header), read within its pinned size, or null if the
   * file is empty.
   */
  static String firstLine(PinnedFile file) throws IOException {
    try (ReadableByteChannel channel = open(file)) {
      return new Bytes(channel, file.compressed() ? Long.MAX_VALUE : file.size()).line();
    }
  }

  /** The first {@code limit} bytes of a channel: after them, its end. */
  private static final class Bounded implements ReadableByteChannel {
    private final ReadableByteChannel channel;
    private long left;

    Bounded(ReadableByteChannel channel, long limit) {
      this.channel = channel;
      this.left = limit;
    }

    @Override
    public int read(ByteBuffer target) throws IOException {
      if (left <= 0) {
        return -1;
      }
      ByteBuffer window = target.slice();
      if (window.remaining() > left) {
        window.limit((int) left);
      }
      int n = channel.read(window);
      if (n > 0) {
        target.position(target.position() + n);
        left -= n;
      }
      return n;
    }

    @Override
    public boolean isOpen() {
      return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** Passes its element on once the side input is ready (the runner holds it back until then). */
  private static final class AwaitFn extends DoFn<PinnedFile, PinnedFile> {
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

  private static final class SplitFn extends DoFn<PinnedFile, FileRange> {
    private static final long serialVersionUID = 1L;
    private final long rangeBytes;

    SplitFn(long rangeBytes) {
      this.rangeBytes = rangeBytes;
    }

    @ProcessElement
    public void process(@Element PinnedFile file, OutputReceiver<FileRange> out) {
      long size = file.size();
      if (file.compressed()) {
        out.output(new FileRange(file, 0, size));
        return;
      }
      for (long start = 0; start < size; start += rangeBytes) {
        out.output(new FileRange(file, start, Math.min(size, start + rangeBytes)));
      }
    }
  }

  /**
   * The lines of {@code channel} (positioned at its start) whose first byte lies in [start, end),
   * but for the file's first line (the header); blank lines included. Bytes at or past
   * {@code limit} are treated as the end of the file.
   */
  static void readRange(ReadableByteChannel channel, long start, long end, long limit,
      Consumer<String> lines) throws IOException {
    Bytes in = new Bytes(channel, limit);
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

  /**
   * A buffered reader of bytes that knows its position in the file and ends at a limit (the
   * file's pinned size) even if the file has grown since.
   */
  private static final class Bytes {
    private final ReadableByteChannel channel;
    private final long limit;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private long position;
    private byte[] line = new byte[256];

    Bytes(ReadableByteChannel channel, long limit) {
      this.channel = channel;
      this.limit = limit;
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
      if (position >= limit) {
        return -1;
      }
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
        if (n == MAX_LINE_BYTES) {
          throw new IllegalArgumentException("a line must be at most " + MAX_LINE_BYTES
              + " bytes, but one at byte " + (position - n) + " is longer (not a CSV file?)");
        }
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
