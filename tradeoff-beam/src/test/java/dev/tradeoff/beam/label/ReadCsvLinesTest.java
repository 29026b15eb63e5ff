package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;

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

  static final class LinesFn extends DoFn<ReadCsvLines.FileRange, String> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void process(@Element ReadCsvLines.FileRange range, OutputReceiver<String> out)
        throws IOException {
      ReadCsvLines.forEachLine(range, out::output);
    }
  }
}
