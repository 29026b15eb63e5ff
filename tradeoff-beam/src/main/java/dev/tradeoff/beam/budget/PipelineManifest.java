package dev.tradeoff.beam.budget;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * What a {@link PrivatePipeline} run committed and what it cost: {@code manifest.json} in its
 * output directory.
 *
 * @param version the manifest format's version
 * @param releases each private transform's name and accounting event
 * @param guarantee the run's (ε, δ) and the accountant that gave it
 * @param ledger the ledger entry the run was charged as, and what the ledger has left; null when
 *     the budget store keeps no entries
 * @param rows the rows of each output (public: planned and charged before the run)
 * @param files each output's files, in the output directory
 */
@JsonPropertyOrder({"version", "releases", "guarantee", "ledger", "rows", "files"})
public record PipelineManifest(String version, List<ReleaseEntry> releases, Guarantee guarantee,
    Ledger ledger, Map<String, Long> rows, Map<String, List<String>> files)
    implements RunManifest {

  /** The version written. */
  public static final String VERSION = "0.1.0";

  public PipelineManifest {
    releases = List.copyOf(releases);
    rows = Map.copyOf(rows);
    files = Map.copyOf(files);
  }

  /** A private transform's release. */
  public record ReleaseEntry(String name, String event) {}

  /** The run's guarantee. */
  public record Guarantee(double epsilon, double delta, String method) {}

  /** The ledger entry: its id and label, and the ledger's remaining budget. */
  public record Ledger(long id, String label, String remaining) {}

  @Override
  public String json() {
    return RunManifest.write(this);
  }

}
