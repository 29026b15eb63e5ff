package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadCsvLinesTest {

  @TempDir Path dir;

  /** A header and rows with every line ending BufferedReader knows, blank lines and non-ASCII. */
  static String text(SplittableRandom r, int rows) {
    String[] endings = {"\n", "\r\n", "\r"};
    StringBuilder s = new StringBuilder("id,x\n");
    for (int i = 0; i < rows; i++) {
      int kind = r.nextInt(10);
      if (kind == 0) {
        s.append("");
      } else if (kind == 1) {
        s.append("\"q,").append(i).append("\",é").append(r.nextInt(1000));
      } else {
        s.append("q").append(i).append(',').append(r.nextInt(1_000_000));
      }
      if (i < rows - 1 || r.nextBoolean()) {
        s.append(endings[r.nextInt(endings.length)]);
      }
    }
    return s.toString();
  }

  /** The data lines as the plan's scan reads them: BufferedReader, the header skipped. */
  static List<String> expected(String text) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new StringReader(text))) {
      in.readLine();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    }
    return lines;
  }

  @Test
  void everyLineLiesInExactlyOneRangeHoweverTheFileIsCut() throws IOException {
    SplittableRandom r = new SplittableRandom(11);
    for (int trial = 0; trial < 200; trial++) {
      String text = text(r, r.nextInt(0, 40));
      Path file = dir.resolve("f" + trial + ".csv");
      Files.writeString(file, text, StandardCharsets.UTF_8);
      long size = Files.size(file);
      long rangeBytes = r.nextLong(1, size + 2);
      List<String> read = new ArrayList<>();
      for (long start = 0; start < size; start += rangeBytes) {
        try (FileChannel channel = FileChannel.open(file)) {
          ReadCsvLines.readRange(channel, start, Math.min(size, start + rangeBytes), size,
              read::add);
        }
      }
      assertThat(read).as("trial %d, ranges of %d bytes", trial, rangeBytes)
          .containsExactlyElementsOf(expected(text));
    }
  }

  @Test
  void pipelineReadsEveryNonBlankLineOfEveryFileOnceAfterTheSideInput() throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    List<String> all = new ArrayList<>();
    for (int f = 0; f < 3; f++) {
      String text = text(r, 60);
      Files.writeString(dir.resolve("part-" + f + ".csv"), text, StandardCharsets.UTF_8);
      expected(text).stream().filter(l -> !l.isBlank()).forEach(all::add);
    }
    List<ReadCsvLines.PinnedFile> pinned = CsvInput.resolve("queries",
        dir.resolve("part-*").toString()).files();
    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(2));
    PCollectionView<List<Integer>> ready = p.apply("Signal", Create.of(1, 2, 3))
        .apply(View.asList());
    PCollection<String> lines = p
        .apply(new ReadCsvLines.Ranges(pinned, ready, 37))
        .apply(ParDo.of(new LinesFn()))
        .setCoder(StringUtf8Coder.of());
    Collected out = Collected.writeTo(lines, dir.resolve("out"));
    p.run().waitUntilFinish();
    assertThat(out.lines()).containsExactlyInAnyOrderElementsOf(all);
  }

  @Test
  void readsOnlyThePinnedBytesOfAFileThatGrew() throws IOException {
    Path file = dir.resolve("grows.csv");
    Files.writeString(file, "id,x\nq1,1\nq2,2", StandardCharsets.UTF_8);
    CsvInput pinned = CsvInput.resolve("queries", file.toString());
    // the last line had no line end: appending to it must not lengthen the pinned last row
    Files.writeString(file, "3\nq3,3\nq4,4\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    List<String> read = new ArrayList<>();
    ReadCsvLines.PinnedFile f = pinned.files().get(0);
    ReadCsvLines.forEachLine(new ReadCsvLines.FileRange(f, 0, f.size()), read::add);
    assertThat(read).containsExactly("q1,1", "q2,2");
  }

  @Test
  void aFileThatShrankBelowItsPinnedSizeFailsTheRead() throws IOException {
    Path file = dir.resolve("shrinks.csv");
    Files.writeString(file, "id,x\nq1,1\nq2,2\n", StandardCharsets.UTF_8);
    ReadCsvLines.PinnedFile f = CsvInput.resolve("queries", file.toString()).files().get(0);
    Files.writeString(file, "id,x\nq1,1\n", StandardCharsets.UTF_8);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReadCsvLines.forEachLine(
        new ReadCsvLines.FileRange(f, 0, f.size()), line -> { }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fewer than the " + f.size());
  }

  /** The queries' schema for a file with the header {@code id,x}. */
  static CsvSchema idX(CsvInput input) {
    return CsvSchema.queries(input.header(), CsvSchema.Columns.DEFAULT,
        CsvSchema.training(new String[] {"label", "x"}, "t"), "q");
  }

  /**
   * RFC 4180 records cut into record ranges anywhere: ids with commas, doubled quotes and line
   * breaks of every kind inside quotes, every line end between records, blank lines, a BOM; every
   * record, with the line it starts on, is read from exactly one range.
   */
  @Test
  void everyRecordLiesInExactlyOneRecordRangeHoweverTheFileIsCut() throws IOException {
    SplittableRandom r = new SplittableRandom(17);
    String[] endings = {"\n", "\r\n", "\r"};
    for (int trial = 0; trial < 150; trial++) {
      StringBuilder text = new StringBuilder(r.nextBoolean() ? "\uFEFFid,x\r\n" : "id,x\n");
      List<String> expected = new ArrayList<>();
      long line = 2;
      int rows = r.nextInt(0, 30);
      for (int i = 0; i < rows; i++) {
        if (r.nextInt(8) == 0) {
          text.append("\r\n"); // a blank line (after a lone \r, \n would end that line)
          line++;
          continue;
        }
        String id = "q" + i;
        int lines = 1;
        switch (r.nextInt(4)) {
          case 0 -> id += ",é";
          case 1 -> id += " say \"hi\"";
          case 2 -> {
            String inside = endings[r.nextInt(3)];
            id += inside + "more";
            lines = 2;
          }
          default -> { }
        }
        expected.add(line + ":" + id + "|" + i);
        text.append(CsvRecords.quote(id)).append(',').append(i);
        line += lines - 1;
        if (i < rows - 1 || r.nextBoolean()) {
          text.append(endings[r.nextInt(3)]);
          line++;
        }
      }
      Path file = dir.resolve("r" + trial + ".csv");
      Files.writeString(file, text, StandardCharsets.UTF_8);
      CsvInput input = CsvInput.resolve("queries", file.toString());
      long rangeBytes = r.nextLong(1, Files.size(file) + 2);
      CsvInput.Scan scan = input.scan(idX(input), rangeBytes, row -> { });
      List<String> read = new ArrayList<>();
      for (ReadCsvLines.RecordRange range : scan.ranges()) {
        ReadCsvLines.forEachRecord(range, "queries",
            (cells, at) -> read.add(at + ":" + String.join("|", cells)));
      }
      assertThat(read).as("trial %d, ranges of %d bytes: %s", trial, rangeBytes, scan.ranges())
          .containsExactlyElementsOf(expected);
      assertThat(scan.rows()).isEqualTo(expected.size());
    }
  }

  /**
   * Files larger than the scan's 64 KiB reads, with every line end and a lone {@code \r} or a
   * {@code \r\n} split at a read's edge: each range starts at the first line to start at or after
   * every {@code rangeBytes} bytes, on the line counted from the text itself (the cut as defined,
   * computed here character by character on the ASCII text).
   */
  @Test
  void recordRangesStartAtTheFirstLineDueAcrossReadBoundaries() throws IOException {
    SplittableRandom r = new SplittableRandom(23);
    String[] endings = {"\n", "\r\n", "\r"};
    for (int trial = 0; trial < 12; trial++) {
      StringBuilder text = new StringBuilder(trial % 2 == 0 ? "id,x\r" : "id,x\r\n");
      int edge = 1 << 16;
      for (int i = 0; text.length() < 3 * edge + 100; i++) {
        // every few trials, a row that ends just before the first read's edge, its line end
        // (\r\n or a lone \r) split by the edge
        int left = edge - 1 - text.length();
        if (trial % 3 == 0 && left >= 4 && left <= 30) {
          text.append("q,").append("1".repeat(left - 2)).append(trial % 2 == 0 ? "\r\n" : "\r");
          continue;
        }
        text.append("q").append(i).append(',').append(r.nextInt(1_000_000))
            .append(endings[r.nextInt(3)]);
      }
      Path file = dir.resolve("big" + trial + ".csv");
      Files.writeString(file, text, StandardCharsets.US_ASCII);
      long rangeBytes = r.nextLong(1, 50_000);
      List<String> expected = new ArrayList<>();
      long due = -1;
      long line = 1;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        boolean lineEnd = c == '\n' || c == '\r' && (i + 1 == text.length()
            || text.charAt(i + 1) != '\n');
        if (lineEnd && i + 1 < text.length()) {
          line++;
          if (due < 0 || i + 1 >= due) {
            expected.add((i + 1) + "@" + line);
            due = i + 1 + rangeBytes;
          }
        }
      }
      CsvInput input = CsvInput.resolve("queries", file.toString());
      CsvInput.Scan scan = input.scan(idX(input), rangeBytes, row -> { });
      assertThat(scan.ranges()).as("trial %d, ranges of %d bytes", trial, rangeBytes)
          .extracting(range -> range.from() + "@" + range.line())
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void recordRangesReadOnlyThePinnedBytesOfAFileThatGrew() throws IOException {
    Path file = dir.resolve("grows.csv");
    Files.writeString(file, "id,x\nq1,1\n\"q,2\",2", StandardCharsets.UTF_8);
    CsvInput pinned = CsvInput.resolve("queries", file.toString());
    CsvInput.Scan scan = pinned.scan(idX(pinned), 4, row -> { });
    // the last record had no line end: appending to it must not lengthen it, or add records
    Files.writeString(file, "3\n\"q\n3\",3\nq4,4\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    List<String> read = new ArrayList<>();
    for (ReadCsvLines.RecordRange range : scan.ranges()) {
      ReadCsvLines.forEachRecord(range, "queries", (cells, at) -> read.add(String.join("|",
          cells)));
    }
    assertThat(scan.ranges()).hasSize(2);
    assertThat(read).containsExactly("q1|1", "q,2|2");
  }

  @Test
  void aMalformedQueryNamesItsFileLineAndColumn() throws IOException {
    Path file = dir.resolve("bad.csv");
    Files.writeString(file, "id,x\r\n\"q\r\n1\",1\r\nq2,\"2\"x\r\n", StandardCharsets.UTF_8);
    CsvInput input = CsvInput.resolve("queries", file.toString());
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> input.scan(idX(input), 1 << 20, row -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queries " + file + ":4, column 2: text after a closing quote");
  }

  static final class LinesFn extends DoFn<ReadCsvLines.FileRange, String> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void process(@Element ReadCsvLines.FileRange range, OutputReceiver<String> out)
        throws IOException {
      ReadCsvLines.forEachLine(range, out::output);
    }
  }
}
