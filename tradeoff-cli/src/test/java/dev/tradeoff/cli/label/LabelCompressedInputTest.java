package dev.tradeoff.cli.label;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.cli.CliRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.Compression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tradeoff label} end to end (DirectRunner) on training and query files compressed with
 * each format it reads: the same labels, counts and guarantee as from the plain files; a file
 * named for one format and holding another is refused in one line.
 */
class LabelCompressedInputTest {

  @TempDir Path dir;

  private static final Map<Compression, String> SUFFIX = Map.of(Compression.GZIP, ".gz",
      Compression.BZIP2, ".bz2", Compression.ZSTD, ".zst", Compression.DEFLATE, ".deflate");

  private static byte[] compress(Compression c, byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (WritableByteChannel out = c.writeCompressed(Channels.newChannel(bytes))) {
      out.write(ByteBuffer.wrap(plain));
    }
    return bytes.toByteArray();
  }

  private CliRun label(Path train, Path queries, Path out) {
    return CliRun.of("label", "--train", train.toString(), "--queries", queries.toString(),
        "--out", out.toString(), "--epsilon", "40", "--delta", "1e-5", "--classes", "no,yes",
        "--seed", "3", "--json");
  }

  @Test
  void everyCompressionLabelsLikeThePlainFiles() throws IOException {
    LabelCommandTest.data(dir, 60, 12);
    Path train = dir.resolve("train.csv");
    Path queries = dir.resolve("q.csv");
    CliRun plain = label(train, queries, dir.resolve("plain"));
    assertThat(plain.status()).as(plain.err()).isZero();
    JsonNode reference = plain.json();
    for (Compression c : SUFFIX.keySet()) {
      Path t = Files.write(dir.resolve("train.csv" + SUFFIX.get(c)),
          compress(c, Files.readAllBytes(train)));
      Path q = Files.write(dir.resolve("q.csv" + SUFFIX.get(c)),
          compress(c, Files.readAllBytes(queries)));
      Path out = dir.resolve("out-" + c.name());
      CliRun run = label(t, q, out);
      assertThat(run.status()).as("%s: %s", c, run.err()).isZero();
      JsonNode m = run.json();
      assertThat(m.get("counts")).as("%s", c).isEqualTo(reference.get("counts"));
      assertThat(m.get("guarantee")).as("%s", c).isEqualTo(reference.get("guarantee"));
      assertThat(labels(out)).as("%s", c).isEqualTo(labels(dir.resolve("plain")));
    }
  }

  @Test
  void aMisnamedFileIsRefusedInOneLine() throws IOException {
    LabelCommandTest.data(dir, 20, 4);
    Path textAsGzip = Files.copy(dir.resolve("train.csv"), dir.resolve("train.csv.gz"));
    CliRun run = label(textAsGzip, dir.resolve("q.csv"), dir.resolve("o"));
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("tradeoff: train ").contains("is named as gzip");
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(dir.resolve("o")).doesNotExist();
  }

  /** The labels written, sorted (the shards' order is the runner's). */
  private static List<String> labels(Path out) throws IOException {
    try (var files = Files.list(out)) {
      return files.filter(p -> p.getFileName().toString().startsWith("labels-"))
          .flatMap(p -> {
            try {
              return Files.readAllLines(p).stream().skip(1);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }).sorted().toList();
    }
  }
}
