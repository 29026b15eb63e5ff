package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.beam.csv.CsvRecords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * A CSV input given as a file, a directory of shards or a glob, resolved through Beam's file
 * systems (so the same spelling works for local paths and for any file system Beam has on its
 * class path) and pinned: the shards it matched when resolved, each with its size then. The
 * plan's scan and the pipeline read exactly those shards and only those bytes
 * ({@link ReadCsvLines}), so a shard added or rows appended later are never read. Every shard
 * starts with the same header line. A shard may be compressed (gzip, bzip2, zstd, deflate), which
 * is decided by what it holds ({@link InputCompression}); its pinned size is its compressed size.
 *
 * @param name what the input is called in messages ({@code train}, {@code queries})
 * @param location the location as given
 * @param files the shards it matched, sorted by path, with their sizes
 * @param header the header's cells
 */
public record CsvInput(String name, String location, List<ReadCsvLines.PinnedFile> files,
    String[] header) {

  public CsvInput {
    files = List.copyOf(files);
    header = header.clone();
  }

  /**
   * Resolves a location and reads each shard's header.
   *
   * @throws IllegalArgumentException if nothing matches, a shard is empty or the shards' headers
   *     differ
   */
  public static CsvInput resolve(String name, String location) {
    Require.nonNull(name, location);
    FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
    String pattern = location;
    if (!location.contains("://") && Files.isDirectory(Path.of(location))) {
      pattern = Path.of(location).resolve("*").toString();
    }
    List<MatchResult.Metadata> matched = new ArrayList<>();
    try {
      MatchResult match = FileSystems.match(pattern, EmptyMatchTreatment.ALLOW);
      if (match.status() == MatchResult.Status.ERROR) {
        match.metadata(); // throws the file system's IOException, reported below
      }
      if (match.status() == MatchResult.Status.OK) {
        for (MatchResult.Metadata m : match.metadata()) {
          if (!m.resourceId().isDirectory()) {
            matched.add(m);
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(name + " " + location + " could not be listed: "
          + e.getMessage());
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new IllegalArgumentException(name + " must be a file, a directory or a glob, but "
          + location + " is not a valid glob (" + e.getDescription() + ")");
    } catch (IllegalArgumentException e) {
      // Beam names a scheme it has no file system for (gs://, hdfs://, s3://...)
      throw new IllegalArgumentException(name + " must be a local file, directory or glob (or use"
          + " a file system this build has), but " + location + " is not: " + e.getMessage());
    }
    List<ReadCsvLines.PinnedFile> files = new ArrayList<>();
    for (MatchResult.Metadata m : matched) {
      String path = m.resourceId().toString();
      try {
        files.add(new ReadCsvLines.PinnedFile(path, m.sizeBytes(),
            InputCompression.of(name, path, m.sizeBytes())));
      } catch (IOException e) {
        throw new UncheckedIOException("reading " + path + " failed: " + e.getMessage(), e);
      }
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException(name + " must name a CSV file, a directory of shards or "
          + "a glob matching at least one file, but " + location + " matched none");
    }
    files.sort(java.util.Comparator.comparing(ReadCsvLines.PinnedFile::path));
    String[] header = null;
    for (ReadCsvLines.PinnedFile file : files) {
      String[] h = header(name, file);
      if (header == null) {
        header = h;
      } else if (!Arrays.equals(header, h)) {
        throw new IllegalArgumentException(name + " shard " + file.path() + " must have the "
            + "header " + Shown.value(String.join(",", header)) + " like " + files.get(0).path()
            + ", but has " + Shown.value(String.join(",", h)));
      }
    }
    return new CsvInput(name, location, files, header);
  }

  private static String[] header(String name, ReadCsvLines.PinnedFile file) {
    String line = readable(name, file, () -> ReadCsvLines.firstLine(file));
    if (line == null) {
      throw new IllegalArgumentException(name + " shard " + file.path()
          + " must start with a header line, but is empty");
    }
    if (line.isBlank()) {
      throw new IllegalArgumentException(name + " shard " + file.path()
          + " must start with a header line, but its first line is blank");
    }
    return CsvRecords.cells(CsvRecords.withoutBom(line), name + " " + file.path(), 1);
  }

  /** A read of a pinned file. */
  private interface Read<T> {
    T run() throws IOException;
  }

  /**
   * Runs a read of {@code file}: a compressed file that cannot be decompressed is bad input
   * (named, with its format; decompressors report some corrupt streams as unchecked exceptions),
   * any other failure to read a file an input/output error.
   */
  private static <T> T readable(String name, ReadCsvLines.PinnedFile file, Read<T> read) {
    try {
      return read.run();
    } catch (IOException e) {
      if (file.compressed()) {
        throw invalid(name, file, e instanceof java.io.EOFException
            ? "it ends inside the compressed stream: truncated?" : e.getMessage() == null
                ? e.getClass().getSimpleName() : e.getMessage(), e);
      }
      throw new UncheckedIOException("reading " + file.path() + " failed: " + e.getMessage(), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw e; // a malformed row or header, a file that shrank: already named
    } catch (RuntimeException e) {
      if (file.compressed()) {
        throw invalid(name, file, e.getClass().getSimpleName(), e);
      }
      throw e;
    }
  }

  private static IllegalArgumentException invalid(String name, ReadCsvLines.PinnedFile file,
      String why, Exception cause) {
    return new IllegalArgumentException(name + " " + file.path() + " is not a valid "
        + file.compression().name().toLowerCase(java.util.Locale.ROOT) + " file ("
        + Shown.value(why) + ")", cause);
  }

  /**
   * Opens a text file for reading whatever its compression ({@link InputCompression}: read from its
   * bytes, checked against its name), refusing to read more than {@code maxBytes} of its text: for
   * inputs read whole into memory, such as the votes of {@code ensemble aggregate}.
   *
   * @param name what the input is called in messages ({@code --votes})
   * @throws IllegalArgumentException if the name and the contents disagree or the format is not
   *     read; reading past {@code maxBytes} of text throws it too, naming the input
   */
  public static BufferedReader openText(String name, String path, long maxBytes)
      throws IOException {
    Require.positive("maxBytes", maxBytes);
    FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
    long size = FileSystems.matchSingleFileSpec(path).sizeBytes();
    org.apache.beam.sdk.io.Compression compression = InputCompression.of(name, path, size);
    ReadableByteChannel raw = FileSystems.open(FileSystems.matchNewResource(path, false));
    java.io.InputStream text = Channels.newInputStream(compression.readDecompressed(raw));
    return new BufferedReader(new InputStreamReader(new java.io.FilterInputStream(text) {
      private long left = maxBytes;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, (int) Math.min(len, left + 1));
        if (n > 0 && (left -= n) < 0) {
          throw new IllegalArgumentException(name + " " + path + " must hold at most " + maxBytes
              + " bytes of text" + (compression == org.apache.beam.sdk.io.Compression.UNCOMPRESSED
                  ? "" : " once decompressed") + ", but holds more");
        }
        return n;
      }
    }, StandardCharsets.UTF_8));
  }

  /** Opens a file through Beam's file systems, to its end. */
  static BufferedReader open(String file) throws IOException {
    ResourceId id = FileSystems.matchNewResource(file, false);
    return new BufferedReader(new InputStreamReader(
        Channels.newInputStream(FileSystems.open(id)), StandardCharsets.UTF_8), 1 << 16);
  }

  /** Receives each data row of a scan, parsed. */
  @FunctionalInterface
  public interface RowVisitor {
    void row(CsvSchema.Row row);
  }

  /**
   * What a scan found.
   *
   * @param rows the number of data rows
   * @param ranges the record ranges the pipeline reads them in ({@link ReadCsvLines#forEachRecord})
   */
  public record Scan(long rows, List<ReadCsvLines.RecordRange> ranges) {
    public Scan {
      ranges = List.copyOf(ranges);
    }
  }

  /**
   * Reads every data row of every pinned shard once (its pinned bytes only, as the pipeline
   * reads them), in the driver, streaming (one record in memory at a time), parsing it against the
   * schema: the check that runs before anything is trained. It cuts the shards into record ranges
   * of about {@code rangeBytes} bytes as it goes (a compressed shard is one range).
   *
   * @return the number of data rows (blank lines are skipped) and the ranges
   * @throws IllegalArgumentException at the first malformed row, naming its file, line and (for a
   *     malformed or empty cell) column
   */
  public Scan scan(CsvSchema schema, long rangeBytes, RowVisitor visitor) {
    long rows = 0;
    List<ReadCsvLines.RecordRange> ranges = new ArrayList<>();
    for (ReadCsvLines.PinnedFile file : files) {
      String where = name + " " + file.path();
      rows += readable(name, file, () -> {
        if (file.compressed()) {
          ReadCsvLines.RecordRange whole = new ReadCsvLines.RecordRange(file, 0, file.size(), 2);
          long n = ReadCsvLines.forEachRecord(whole, name,
              (cells, line) -> visitor.row(schema.row(cells, where, line)));
          if (n > 0) {
            ranges.add(whole);
          }
          return n;
        }
        ReadCsvLines.Cutter cutter = new ReadCsvLines.Cutter(file, rangeBytes);
        long n = ReadCsvLines.forEachRecord(cutter.whole(), name, (cells, line) -> {
          visitor.row(schema.row(cells, where, line));
          cutter.recordAt(line);
        });
        ranges.addAll(cutter.ranges());
        return n;
      });
    }
    return new Scan(rows, ranges);
  }
}
