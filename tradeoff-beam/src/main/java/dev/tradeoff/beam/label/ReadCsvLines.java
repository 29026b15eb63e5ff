package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.csv.CsvRecords;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * Reading CSV files pinned by the plan ({@link PinnedFile}: a path and the size it had then) in
 * byte ranges, each file's first line (its header) skipped, distributed over the workers once a
 * side input is ready, in two ways:
 *
 * <ul>
 *   <li>by line ({@link Ranges}, {@link #forEachLine}), for the sensitive training records: a
 *       record is one line, read alone, so that no row (an unbalanced quote, say) can change how
 *       another row is read; the guarantee is per record. Ranges are cut at fixed sizes; a line
 *       belongs to the range in which its first byte lies; lines end at {@code \n},
 *       {@code \r\n} or a lone {@code \r}, so every line of every file is read exactly once,
 *       however the files are cut.
 *   <li>by record ({@link RecordRanges}, {@link #forEachRecord}), for the public queries: RFC 4180
 *       records ({@link CsvRecords}; a quoted cell may hold a line break) parsed from one stream
 *       over each range. The plan's scan of the queries cuts the ranges at record starts
 *       ({@link CsvInput#scan}), so every record lies in exactly one range.
 * </ul>
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
 * only element held back is a range, and a worker reads one record of a range at a time.
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
        pinned = pinned.apply("Await", ParDo.of(new AwaitFn<PinnedFile>(after))
            .withSideInputs(after))
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
   * Bytes [from, to) of a pinned file that begin and end at record starts (or its end), as the
   * plan's scan found them ({@link CsvInput#scan}), the first starting on line {@code line} of
   * the file. A compressed file is one range, from 0 (its header then skipped) to its pinned
   * size.
   */
  public record RecordRange(PinnedFile file, long from, long to, long line)
      implements Serializable {
    public RecordRange {
      Require.nonNull("file", file);
      Require.that(0 <= from && from <= to && to <= file.size(), "range",
          "must lie in [0, " + file.size() + "]", "[" + from + ", " + to + ")");
      Require.that(!file.compressed() || from == 0 && to == file.size(), "range",
          "must be the whole of a compressed file", "[" + from + ", " + to + ")");
      Require.positive("line", line);
    }
  }

  /**
   * Record ranges cut by the plan, distributed over the workers ({@link Reshuffle}) once the side
   * input (if any) is ready, for a transform that reads its ranges itself
   * ({@link #forEachRecord}).
   */
  public static final class RecordRanges extends PTransform<PBegin, PCollection<RecordRange>> {

    private static final long serialVersionUID = 1L;

    private final List<RecordRange> ranges;
    private final PCollectionView<?> after;

    /**
     * @param ranges the ranges, as the plan cut them (at least one)
     * @param after the side input that must be ready before any range is read, or null to read
     *     at once
     */
    public RecordRanges(List<RecordRange> ranges, PCollectionView<?> after) {
      this.ranges = List.copyOf(ranges);
      Require.that(!this.ranges.isEmpty(), "ranges", "must hold at least one range", ranges);
      this.after = after;
    }

    @Override
    public PCollection<RecordRange> expand(PBegin begin) {
      PCollection<RecordRange> ranged = begin.apply("Ranges", Create.of(ranges)
          .withCoder(SerializableCoder.of(RecordRange.class)));
      if (after != null) {
        ranged = ranged.apply("Await", ParDo.of(new AwaitFn<RecordRange>(after))
            .withSideInputs(after)).setCoder(SerializableCoder.of(RecordRange.class));
      }
      return ranged.apply("Distribute", Reshuffle.viaRandomKey());
    }
  }

  /**
   * Reads the non-blank records of one record range, parsed from one stream over its bytes, never
   * past the file's pinned size.
   *
   * @param name what the input is called in messages ({@code queries})
   * @return the number of records
   * @throws IllegalArgumentException for malformed text, naming the file, line and column
   * @throws IllegalStateException if the file is now shorter than its pinned size
   */
  public static long forEachRecord(RecordRange range, String name, CsvRecords.Visitor records)
      throws IOException {
    return CsvRecords.read(() -> text(range), name + " " + range.file().path(), range.line(),
        records);
  }

  /** The text of a record range: its bytes, or a compressed file's text after its header. */
  private static Reader text(RecordRange range) throws IOException {
    ReadableByteChannel channel = open(range.file());
    try {
      InputStream bytes;
      if (range.file().compressed()) {
        bytes = new BufferedInputStream(Channels.newInputStream(channel), 1 << 16);
        skipLine(bytes);
      } else {
        if (channel instanceof SeekableByteChannel seekable) {
          seekable.position(range.from());
        } else {
          ByteBuffer skip = ByteBuffer.allocate(1 << 16);
          for (long left = range.from(); left > 0; ) {
            skip.clear().limit((int) Math.min(skip.capacity(), left));
            int n = channel.read(skip);
            if (n < 0) {
              break;
            }
            left -= n;
          }
        }
        bytes = Channels.newInputStream(new Bounded(channel, range.to() - range.from()));
      }
      return new InputStreamReader(bytes, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Consumes a line of a stream that has marks, with its end (LF, CRLF or a lone CR). */
  private static void skipLine(InputStream in) throws IOException {
    for (int b = in.read(); b >= 0; b = in.read()) {
      if (b == '\n') {
        return;
      }
      if (b == '\r') {
        in.mark(1);
        if (in.read() != '\n') {
          in.reset();
        }
        return;
      }
    }
  }

  /**
   * Cuts an uncompressed pinned file into record ranges while its records are read once: the
   * candidates are the first lines to start at or after every {@code rangeBytes} bytes (the first
   * being the line after the header), found in the bytes before the records are read; a candidate
   * is kept only if a record starts on its line ({@link #recordAt}; a line inside a quoted cell is
   * not one).
   */
  static final class Cutter {
    private final PinnedFile file;
    private final List<long[]> candidates = new ArrayList<>();
    private final List<long[]> kept = new ArrayList<>();
    private final long rangeBytes;
    /** The number of the line found last (1, the header, before any line start is found). */
    private long lastLine = 1;
    /** Where the next candidate is due. */
    private long due;
    private int next = 1;
    private boolean any;

    Cutter(PinnedFile file, long rangeBytes) throws IOException {
      Require.that(!file.compressed(), "file", "must not be compressed (read as one range)",
          file.path());
      Require.positive("rangeBytes", rangeBytes);
      this.file = file;
      this.rangeBytes = rangeBytes;
      long size = file.size();
      // the lines start after each \n and after each \r not followed by \n; the first such start
      // ends the header. One pass over the pinned bytes in bulk; a \r that ends a read is decided
      // by the next byte.
      boolean afterCr = false;
      try (ReadableByteChannel channel = open(file)) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        byte[] bytes = buffer.array();
        for (long position = 0; position < size; ) {
          buffer.clear().limit((int) Math.min(bytes.length, size - position));
          int n = channel.read(buffer);
          if (n < 0) {
            break;
          }
          for (int i = 0; i < n; i++) {
            byte c = bytes[i];
            if (afterCr && c != '\n') {
              lineStartsAt(position + i);
            }
            afterCr = c == '\r';
            if (c == '\n' && position + i + 1 < size) {
              lineStartsAt(position + i + 1);
            }
          }
          position += n;
        }
      }
    }

    /** A line starts at byte {@code at} (within the pinned size): a candidate if it is due. */
    private void lineStartsAt(long at) {
      if (lastLine++ == 1) {
        due = at;
      }
      if (at >= due) {
        candidates.add(new long[] {at, lastLine});
        due = at + rangeBytes;
      }
    }

    /** Where the data starts (after the header), or the file's size if it has no data. */
    long start() {
      return candidates.isEmpty() ? file.size() : candidates.get(0)[0];
    }

    /** Told the line of each record, in order. */
    void recordAt(long line) {
      any = true;
      while (next < candidates.size() && candidates.get(next)[1] < line) {
        next++;
      }
      if (next < candidates.size() && candidates.get(next)[1] == line) {
        kept.add(candidates.get(next++));
      }
    }

    /** All of the data, a range to read it in one piece (the cuts are found as it is read). */
    RecordRange whole() {
      return new RecordRange(file, start(), file.size(), 2);
    }

    /**
     * The ranges from the data's start and between the kept cuts; none for a file without
     * records.
     */
    List<RecordRange> ranges() {
      List<RecordRange> ranges = new ArrayList<>();
      if (!any) {
        return ranges;
      }
      List<long[]> kept = new ArrayList<>();
      kept.add(candidates.get(0));
      kept.addAll(this.kept);
      for (int i = 0; i < kept.size(); i++) {
        long to = i + 1 < kept.size() ? kept.get(i + 1)[0] : file.size();
        ranges.add(new RecordRange(file, kept.get(i)[0], to, kept.get(i)[1]));
      }
      return ranges;
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
  private static final class AwaitFn<T> extends DoFn<T, T> {
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
