package dev.tradeoff.beam.runner;

import dev.tradeoff.accounting.internal.Require;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.values.PCollection;

/**
 * Brings a small result back to the driver on every runner: the lines are written with
 * {@link TextIO} into a directory (a runner-independent sink) and read back, sorted, after the
 * run. Only for results that fit in memory (labels, histograms).
 */
public final class Collected {

  private final Path directory;

  private Collected(Path directory) {
    this.directory = directory;
  }

  /** Writes {@code lines} under {@code directory} (which must be empty or absent). */
  public static Collected writeTo(PCollection<String> lines, Path directory) {
    Require.nonNull("lines", lines);
    Require.nonNull("directory", directory);
    lines.apply("Collect", TextIO.write().to(directory.resolve("part").toString())
        .withSuffix(".txt").withNumShards(1));
    return new Collected(directory);
  }

  /** The collected lines, sorted; call after the pipeline has finished. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("part"))
          .sorted().toList()) {
        lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the pipeline's output in " + directory, e);
    }
    lines.sort(null);
    return lines;
  }
}
