package dev.tradeoff.beam.budget;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * The output directory of a budgeted run: the pipeline writes its outputs as
 * {@link CountedShards} into a hidden work directory ({@link #start}, {@link #prefix});
 * {@link #commit} checks that each output holds exactly the planned number of records (else
 * nothing is committed), writes an {@code _INCOMPLETE} marker, renames the shards into place as
 * {@code NAME-00000-of-0000N.csv}, writes {@code manifest.json} (under a temporary name, then
 * renamed) and removes the marker. A crash at any point leaves results only under the marker, or
 * none.
 */
public final class RunOutput {

  /** The marker present while results are being moved into place. */
  public static final String INCOMPLETE = "_INCOMPLETE";

  /** The manifest's file name. */
  public static final String MANIFEST = "manifest.json";

  private final Path out;
  private final Path work;
  private final boolean created;

  private RunOutput(Path out, Path work, boolean created) {
    this.out = out;
    this.work = work;
    this.created = created;
  }

  /**
   * Refuses an output that is a file, or a non-empty directory without {@code overwrite}.
   *
   * @throws IllegalArgumentException naming the directory
   */
  public static void check(Path out, boolean overwrite) {
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
  public static RunOutput start(Path out) {
    Path absolute = out.toAbsolutePath();
    Path work = absolute.resolve(".tradeoff-" + UUID.randomUUID());
    boolean created = !Files.exists(absolute);
    try {
      Files.createDirectories(work);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + work + " failed: " + e.getMessage(), e);
    }
    return new RunOutput(absolute, work, created);
  }

  /** The output directory. */
  public Path directory() {
    return out;
  }

  /** Where the pipeline writes the shards of the output called {@code name}. */
  public String prefix(String name) {
    return work.resolve(name).toString();
  }

  /**
   * Removes the work directory of a run that failed (nothing is committed), and the output
   * directory too if this run created it and it is empty.
   */
  public void abandon() {
    removeWork();
    if (created) {
      try {
        Files.deleteIfExists(out);
      } catch (IOException e) {
        // not empty (someone else wrote there) or already gone: left as it is
      }
    }
  }

  private void removeWork() {
    try (Stream<Path> walk = Files.walk(work)) {
      walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: a leftover hidden work directory holds no released output
    }
  }

  /**
   * Commits every output's shards and the manifest.
   *
   * @param planned the planned (and charged) number of records of each output, by name
   * @param manifest the manifest for the committed file names of each output
   * @return the manifest as written
   * @throws IllegalStateException if an output holds another number of records (nothing
   *     committed)
   */
  public <M extends RunManifest> M commit(Map<String, Long> planned,
      Function<Map<String, List<String>>, M> manifest) {
    Map<String, List<CountedShards.Completed>> shards = new LinkedHashMap<>();
    for (var output : planned.entrySet()) {
      String name = output.getKey();
      List<CountedShards.Completed> completed;
      try {
        completed = CountedShards.completed(prefix(name));
      } catch (IOException e) {
        abandon();
        throw new UncheckedIOException("reading the list of " + name + " shards under " + work
            + " failed (nothing was committed): " + e.getMessage(), e);
      }
      long produced = completed.stream().mapToLong(CountedShards.Completed::records).sum();
      if (produced != output.getValue()) {
        abandon();
        throw new IllegalStateException("the pipeline produced " + produced + " " + name
            + " where " + output.getValue() + " were planned and charged; nothing was committed");
      }
      shards.put(name, completed);
    }
    try {
      Files.writeString(out.resolve(INCOMPLETE), "results are being moved into place by run "
          + work.getFileName() + "\n", StandardCharsets.UTF_8);
      // --overwrite: an earlier run's results and manifest go first (the marker is already there)
      Files.deleteIfExists(out.resolve(MANIFEST));
      try (Stream<Path> earlier = Files.list(out)) {
        for (Path f : earlier.filter(f -> shards.keySet().stream()
            .anyMatch(name -> f.getFileName().toString().startsWith(name + "-"))).toList()) {
          Files.delete(f);
        }
      }
      List<ResourceId> from = new ArrayList<>();
      List<ResourceId> to = new ArrayList<>();
      Map<String, List<String>> names = new LinkedHashMap<>();
      for (var output : shards.entrySet()) {
        List<CountedShards.Completed> completed = output.getValue();
        List<String> files = new ArrayList<>();
        for (int i = 0; i < completed.size(); i++) {
          String file = String.format(Locale.ROOT, "%s-%05d-of-%05d.csv", output.getKey(), i,
              completed.size());
          from.add(FileSystems.matchNewResource(completed.get(i).path(), false));
          to.add(FileSystems.matchNewResource(out.resolve(file).toString(), false));
          files.add(file);
        }
        names.put(output.getKey(), List.copyOf(files));
      }
      FileSystems.rename(from, to, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
      M m = manifest.apply(names);
      Path pending = work.resolve(MANIFEST);
      try (OutputStream o = Channels.newOutputStream(FileSystems.create(
          FileSystems.matchNewResource(pending.toString(), false), "application/json"))) {
        o.write((m.json() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      Files.move(pending, out.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      Files.delete(out.resolve(INCOMPLETE));
      removeWork();
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException("committing the results to " + out + " failed (they stay "
          + "marked " + INCOMPLETE + "): " + e.getMessage(), e);
    }
  }
}
