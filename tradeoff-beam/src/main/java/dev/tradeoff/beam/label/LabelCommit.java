package dev.tradeoff.beam.label;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * How a labelling run's output reaches its directory: the pipeline writes into a hidden work
 * directory ({@link #start}); {@link #commit} checks that the shards hold exactly the planned
 * number of labels (else nothing is committed), writes an {@code _INCOMPLETE} marker, renames the
 * shards into place, writes {@code manifest.json} (under a temporary name, then renamed) and
 * removes the marker. A crash at any point leaves labels only under the marker or none.
 */
public final class LabelCommit {

  /** The marker present while labels are being moved into place. */
  public static final String INCOMPLETE = "_INCOMPLETE";

  /** The manifest's file name. */
  public static final String MANIFEST = "manifest.json";

  /** The label shards' name prefix in the work directory. */
  private static final String LABELS = "labels";

  private final Path out;
  private final Path work;

  private LabelCommit(Path out, Path work) {
    this.out = out;
    this.work = work;
  }

  /**
   * Refuses an output that is a file, or a non-empty directory without {@code overwrite}.
   *
   * @throws IllegalArgumentException naming the directory
   */
  static void checkOutput(Path out, boolean overwrite) {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new IllegalArgumentException("out must be a directory, but " + out + " is a file");
    }
    if (Files.isDirectory(out) && !overwrite) {
      try (Stream<Path> entries = Files.list(out)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("out must be a new or empty directory (or pass "
              + "--overwrite), but " + out + " is not empty");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Creates the hidden work directory of one run under {@code out}. */
  static LabelCommit start(Path out) {
    Path absolute = out.toAbsolutePath();
    Path work = absolute.resolve(".tradeoff-" + UUID.randomUUID());
    try {
      Files.createDirectories(work);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + work + " failed: " + e.getMessage(), e);
    }
    return new LabelCommit(absolute, work);
  }

  /** Where the pipeline writes its shards ({@link LabelShards}'s prefix). */
  String shardPrefix() {
    return work.resolve(LABELS).toString();
  }

  /** Removes the work directory of a run that failed: nothing is committed. */
  void abandon() {
    try (Stream<Path> walk = Files.walk(work)) {
      walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: a leftover hidden work directory holds no released output
    }
  }

  /**
   * Commits the shards and the manifest.
   *
   * @param expected the planned (and charged) number of labels
   * @param manifest the manifest for the committed shard names
   * @throws IllegalStateException if the shards hold another number of labels (nothing
   *     committed)
   */
  LabelManifest commit(long expected, Function<List<String>, LabelManifest> manifest) {
    List<LabelShards.CompletedShard> shards;
    try {
      shards = LabelShards.completedShards(shardPrefix());
    } catch (IOException e) {
      abandon();
      throw new UncheckedIOException("reading the list of label shards under " + work
          + " failed (nothing was committed): " + e.getMessage(), e);
    }
    long labelled = shards.stream().mapToLong(LabelShards.CompletedShard::labels).sum();
    if (labelled != expected) {
      abandon();
      throw new IllegalStateException("the labelling pipeline produced " + labelled + " labels "
          + "where " + expected + " were planned and charged; nothing was committed");
    }
    try {
      Files.writeString(out.resolve(INCOMPLETE), "labels are being moved into place by run "
          + work.getFileName() + "\n", StandardCharsets.UTF_8);
      // --overwrite: an earlier run's labels and manifest go first (the marker is already there)
      Files.deleteIfExists(out.resolve(MANIFEST));
      try (Stream<Path> earlier = Files.list(out)) {
        for (Path f : earlier.filter(f -> f.getFileName().toString().startsWith(LABELS + "-"))
            .toList()) {
          Files.delete(f);
        }
      }
      List<ResourceId> from = new ArrayList<>();
      List<ResourceId> to = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < shards.size(); i++) {
        String name = String.format(Locale.ROOT, LABELS + "-%05d-of-%05d.csv", i, shards.size());
        from.add(FileSystems.matchNewResource(shards.get(i).path(), false));
        names.add(name);
        to.add(FileSystems.matchNewResource(out.resolve(name).toString(), false));
      }
      FileSystems.rename(from, to, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
      LabelManifest m = manifest.apply(names);
      Path pending = work.resolve(MANIFEST);
      try (OutputStream o = Channels.newOutputStream(FileSystems.create(
          FileSystems.matchNewResource(pending.toString(), false), "application/json"))) {
        o.write((m.json() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      Files.move(pending, out.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      Files.delete(out.resolve(INCOMPLETE));
      abandon();
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException("committing the labels to " + out + " failed (they stay "
          + "marked " + INCOMPLETE + "): " + e.getMessage(), e);
    }
  }
}
