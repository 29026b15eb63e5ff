package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.beam.label.CsvInput;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ensemble.aggregate.BatchAggregator;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble aggregate}: DaRRM (Algorithm 1) over a CSV of vote vectors, one label per
 * row, with the guarantee of all rows together. The γ must pass the exact verifier for the setting
 * stored in the γ file (as written by {@code optimize}/{@code baseline --json}) or given by the
 * options.
 */
@Command(name = "aggregate", mixinStandardHelpOptions = true,
    description = "Aggregate a CSV of 0/1 votes (one query per row) with DaRRM.")
public final class EnsembleAggregateCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--votes", required = true, description = "CSV, one row of K 0/1 votes per query.")
  Path votes;

  @Option(names = "--gamma-file", required = true, description = "JSON gamma (with its setting).")
  Path gammaFile;

  @Option(names = "--out", required = true, description = "Output CSV of labels, one per row.")
  Path out;

  @Option(names = "--seed", description = "Seed (testing only; default: SecureRandom).")
  Long seed;

  @Mixin GammaSetting settingOptions;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Option(names = "--delta-slack", defaultValue = "1e-4",
      converter = PrivacyParameters.Delta.class,
      description = "delta' of general composition over the queries (default 1e-4).")
  double deltaSlack;

  @Override
  public void run() {
    Inputs.outputFile("--out", out);
    EnsembleJson.GammaFile file = EnsembleJson.readGamma(gammaFile);
    int k = file.gamma().teachers();
    DarrmSetting setting = settingOptions.resolve(k, file.setting(), gammaFile);
    int[][] rows = readVotes(votes, k);
    RandomGenerator random = seed == null ? new SecureRandom() : new SplittableRandom(seed);
    BatchAggregator aggregator = new BatchAggregator(setting, file.gamma());
    BatchAggregator.Batch batch = aggregator.aggregate(rows, deltaSlack, random);
    StringBuilder csv = new StringBuilder();
    for (int label : batch.labels()) {
      csv.append(label).append('\n');
    }
    try {
      Files.writeString(out, csv);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + out + ": " + e.getMessage());
    }
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("queries", rows.length);
    report.put("out", out.toString());
    report.put("perQuery", guarantee(batch.perQuery()));
    report.put("totalBasic", guarantee(batch.basicTotal()));
    report.put("totalGeneral", guarantee(batch.generalTotal()));
    report.put("deltaSlack", deltaSlack);
    report.put("seeded", seed != null);
    report.put("randomness", seed == null ? "secure" : "seeded(" + seed + "): reproducible, NOT private");
    report.put("certificate", EnsembleJson.certificate(aggregator.certificate()));
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, report);
      return;
    }
    o.printf("%d labels written to %s%n", rows.length, out);
    o.printf("per query     %s%n", EnsembleJson.guarantee(batch.perQuery()));
    o.printf("all, basic    %s%n", EnsembleJson.guarantee(batch.basicTotal()));
    o.printf("all, general  %s (delta' = %s)%n", EnsembleJson.guarantee(batch.generalTotal()),
        Numbers.up(deltaSlack));
    if (seed != null) {
      o.printf("randomness    seeded(%d): reproducible, NOT private; these guarantees do not hold%n", seed);
    }
    o.flush();
  }

  private static Map<String, Object> guarantee(ApproxDp g) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("epsilon", g.epsilon());
    m.put("delta", g.delta());
    return m;
  }

  /** Largest votes file read. */
  static final long MAX_VOTES_BYTES = 256L << 20;

  /**
   * Rows of exactly K values, each 0 or 1, from CSV ({@link CsvRecords}) in a plain or compressed
   * (gzip, bzip2, zstd, deflate) file of at most {@link #MAX_VOTES_BYTES} bytes of text.
   */
  static int[][] readVotes(Path path, int k) {
    Inputs.inputFile("--votes", path, MAX_VOTES_BYTES);
    List<int[]> rows = new ArrayList<>();
    try {
      CsvRecords.read(() -> CsvRecords.withoutBom(CsvInput.openText("--votes", path.toString(),
          MAX_VOTES_BYTES)), "votes file " + path, 1, (cells, lineNo) -> {
            if (cells.length != k) {
              throw new IllegalArgumentException("votes file " + path + " line " + lineNo
                  + " has " + cells.length + " votes, but K = " + k
                  + " (ragged rows are not allowed)");
            }
            int[] row = new int[k];
            for (int i = 0; i < k; i++) {
              String c = cells[i];
              if (!c.equals("0") && !c.equals("1")) {
                throw new IllegalArgumentException("votes file " + path + " line " + lineNo
                    + " column " + (i + 1) + " must be 0 or 1, but was '" + Shown.value(c) + "'");
              }
              row[i] = c.charAt(0) - '0';
            }
            rows.add(row);
          });
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read votes file " + path + " ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("votes file " + path + " holds no votes");
    }
    return rows.toArray(new int[0][]);
  }
}
