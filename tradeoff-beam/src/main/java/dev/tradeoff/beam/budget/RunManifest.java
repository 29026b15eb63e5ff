package dev.tradeoff.beam.budget;

/**
 * What a committed budgeted run wrote and what it cost, as {@code manifest.json}: the one text the
 * run's {@code --json} prints too.
 */
public interface RunManifest {

  /** The manifest as JSON text. */
  String json();
}
