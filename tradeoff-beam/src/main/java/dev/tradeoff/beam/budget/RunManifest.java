package dev.tradeoff.beam.budget;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What a committed budgeted run wrote and what it cost, as {@code manifest.json}: the one text the
 * run's {@code --json} prints too.
 */
public interface RunManifest {

  /** The manifest as JSON text. */
  String json();

  /**
   * A manifest record as indented JSON, map entries sorted by key: the writer every manifest's
   * {@link #json()} uses.
   */
  static String write(RunManifest manifest) {
    try {
      return ManifestJson.MAPPER.writeValueAsString(manifest);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
