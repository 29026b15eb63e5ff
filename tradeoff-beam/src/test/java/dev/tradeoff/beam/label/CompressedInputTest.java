package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.beam.runner.Collected;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.Compression;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compressed inputs: recognised by their bytes, read through Beam's decompressors as one range,
 * only their pinned compressed bytes, and refused when the name says another format.
 */
class CompressedInputTest {

  @TempDir Path dir;

  static final Map<Compression, String> SUFFIX = Map.of(Compression.GZIP, ".gz",
      Compression.BZIP2, ".bz2", Compression.ZSTD, ".zst", Compression.DEFLATE, ".deflate");

  /** {@code text} compressed by Beam's writer of {@code compression}. */
  static byte[] compress(Compression compression, String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (WritableByteChannel out = compression.writeCompressed(Channels.newChannel(bytes))) {
      out.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }
    return bytes.toByteArray();
  }

  @Test
  void eachCompressionIsRecognisedAndReadLikeThePlainFile() throws IOException {
    SplittableRandom r = new SplittableRandom(22);
    for (Compression c : SUFFIX.keySet()) {
      String text = ReadCsvLinesTest.text(r, 300);
      Path file = Files.write(dir.resolve("q-" + c.name() + ".csv" + SUFFIX.get(c)),
          compress(c, text));
      CsvInput input = CsvInput.resolve("queries", file.toString());
      ReadCsvLines.PinnedFile pinned = input.files().get(0);
      assertThat(pinned.compression()).isEqualTo(c);
      assertThat(pinned.size()).isEqualTo(Files.size(file));
      assertThat(input.header()).containsExactly("id", "x");
      List<String> read = new ArrayList<>();
      ReadCsvLines.forEachLine(new ReadCsvLines.FileRange(pinned, 0, pinned.size()), read::add);
      assertThat(read).as("%s", c).containsExactlyElementsOf(
          ReadCsvLinesTest.expected(text).stream().filter(l -> !l.isBlank()).toList());
    }
  }

  @Test
  void aGzipFileIsRecognisedUnderAnyNameButDeflateOnlyUnderItsOwn() throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (OutputStream z = new GZIPOutputStream(gz)) {
      z.write("id,x\nq1,1\n".getBytes(StandardCharsets.UTF_8));
    }
    Path plainName = Files.write(dir.resolve("queries.csv"), gz.toByteArray());
    assertThat(CsvInput.resolve("queries", plainName.toString()).files().get(0).compression())
        .isEqualTo(Compression.GZIP);
    // "x^" is a valid zlib header: a CSV starting with it is text unless named .deflate
    Path caret = Files.writeString(dir.resolve("caret.csv"), "x^y,id\n1,q1\n");
    assertThat(CsvInput.resolve("queries", caret.toString()).files().get(0).compression())
        .isEqualTo(Compression.UNCOMPRESSED);
  }

  @Test
  void aFileWhoseNameSaysAnotherFormatIsRefused() throws IOException {
    Path plainGz = Files.writeString(dir.resolve("plain.csv.gz"), "id,x\nq1,1\n");
    assertThatThrownBy(() -> CsvInput.resolve("queries", plainGz.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is named as gzip, but its contents are not");
    Path bz2Gz = Files.write(dir.resolve("bzip2.csv.gz"), compress(Compression.BZIP2, "id\n"));
    assertThatThrownBy(() -> CsvInput.resolve("queries", bz2Gz.toString()))
        .hasMessageContaining("is named as gzip, but its contents are bzip2");
    Path textDeflate = Files.writeString(dir.resolve("t.csv.deflate"), "id,x\nq1,1\n");
    assertThatThrownBy(() -> CsvInput.resolve("queries", textDeflate.toString()))
        .hasMessageContaining("is named as deflate, but its contents are not");
    Path zip = dir.resolve("q.zip");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
      z.putNextEntry(new ZipEntry("q.csv"));
      z.write("id,x\nq1,1\n".getBytes(StandardCharsets.UTF_8));
    }
    assertThatThrownBy(() -> CsvInput.resolve("queries", zip.toString()))
        .hasMessageContaining("is a zip archive, which is not read");
    Path snappy = Files.writeString(dir.resolve("q.csv.snappy"), "id\n");
    assertThatThrownBy(() -> CsvInput.resolve("queries", snappy.toString()))
        .hasMessageContaining("is named as snappy, which is not read");
  }

  @Test
  void aCorruptOrTruncatedCompressedFileIsRefusedNamingItsFormat() throws IOException {
    for (Compression c : SUFFIX.keySet()) {
      byte[] whole = compress(c, "id,x\n" + "q,1\n".repeat(5000));
      Path file = Files.write(dir.resolve("cut" + SUFFIX.get(c)),
          java.util.Arrays.copyOf(whole, whole.length / 2));
      assertThatThrownBy(() -> {
        CsvInput in = CsvInput.resolve("queries", file.toString());
        in.scan(CsvSchema.queries(in.header(), CsvSchema.Columns.DEFAULT,
            CsvSchema.training(new String[] {"label", "x"}, "t"), "q"), 1 << 20, row -> { });
      }).as("%s", c).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not a valid " + c.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  @Test
  void onlyThePinnedCompressedBytesAreReadWhenTheFileGrows() throws IOException {
    Path file = Files.write(dir.resolve("grows.csv.gz"),
        compress(Compression.GZIP, "id,x\nq1,1\nq2,2\n"));
    ReadCsvLines.PinnedFile pinned = CsvInput.resolve("queries", file.toString()).files().get(0);
    // a second gzip member appended: a reader of the whole file would see q3 and q4
    Files.write(file, compress(Compression.GZIP, "q3,3\nq4,4\n"), StandardOpenOption.APPEND);
    List<String> read = new ArrayList<>();
    ReadCsvLines.forEachLine(new ReadCsvLines.FileRange(pinned, 0, pinned.size()), read::add);
    assertThat(read).containsExactly("q1,1", "q2,2");
  }

  @Test
  void thePipelineReadsACompressedFileAsOneRange() throws IOException {
    SplittableRandom r = new SplittableRandom(3);
    List<String> all = new ArrayList<>();
    for (Compression c : List.of(Compression.UNCOMPRESSED, Compression.GZIP, Compression.ZSTD)) {
      String text = ReadCsvLinesTest.text(r, 80);
      Files.write(dir.resolve("part-" + c.name() + ".csv" + SUFFIX.getOrDefault(c, "")),
          compress(c, text));
      ReadCsvLinesTest.expected(text).stream().filter(l -> !l.isBlank()).forEach(all::add);
    }
    List<ReadCsvLines.PinnedFile> pinned = CsvInput.resolve("queries",
        dir.resolve("part-*").toString()).files();
    Pipeline p = Pipeline.create(BeamRunner.DIRECT.options(2));
    PCollection<String> lines = p
        .apply(new ReadCsvLines.Ranges(pinned, null, 29))
        .apply(ParDo.of(new ReadCsvLinesTest.LinesFn()))
        .setCoder(StringUtf8Coder.of());
    Collected out = Collected.writeTo(lines, dir.resolve("out"));
    p.run().waitUntilFinish();
    assertThat(out.lines()).containsExactlyInAnyOrderElementsOf(all);
  }
}
