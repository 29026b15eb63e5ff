package dev.tradeoff.cli.shuffle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.RealSumProtocol;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import dev.tradeoff.shuffle.protocol.SumEstimate;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff shuffle sum}: runs the shuffled real-sum protocol P^R_{n,λ,r} [ShuffleGDP21,
 * Algorithm 3] on one CSV column of values in [0, 1], one user per row. Randomness is secure unless
 * {@code --seed} asks for a reproducible (non-private) run.
 */
@Command(
    name = "sum",
    mixinStandardHelpOptions = true,
    description = "Run the shuffled sum protocol on a CSV column of values in [0, 1].")
public final class ShuffleSumCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--input", required = true, description = "CSV file with a header row")
  Path input;

  @Option(names = "--column", required = true, description = "column holding the values")
  String column;

  @Option(names = "--lambda", required = true, description = "expected number of fair coins, in (0, n)")
  double lambda;

  @Option(names = "--bits", defaultValue = "1", description = "bits r per value")
  int bits;

  @Option(names = "--delta", defaultValue = "1e-6", converter = PrivacyParameters.Delta.class,
      description = "delta at which the guarantee's epsilon is printed (default ${DEFAULT-VALUE})")
  double delta;

  @Option(names = "--seed", description = "seed for a reproducible simulation (not private)")
  Long seed;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Inputs.count("--bits", bits, 1, ShuffleAnalyzeCommand.MAX_BITS);
    double[] values = readColumn(input, column);
    ShuffleParameters parameters = ShuffleAnalyzeCommand.parameters(values.length, lambda, bits);
    ShuffleReport guarantee = ShuffleReport.of(parameters, bits, delta);
    RealSumProtocol protocol = new RealSumProtocol(parameters, bits);
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    SumEstimate estimate = protocol.run(values, random);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = Json.MAPPER;
      ObjectNode root = mapper.createObjectNode();
      root.put("users", values.length);
      root.put("lambda", lambda);
      root.put("bits", bits);
      root.put("estimate", estimate.value());
      root.put("standardError", estimate.standardError());
      root.put("varianceBound", estimate.variance());
      root.put("randomness", seed == null ? "secure" : "seeded");
      root.put("seeded", seed != null);
      ObjectNode g = root.putObject("guarantee");
      g.put("source", "exact");
      g.put("mu", guarantee.exact().mu());
      g.put("epsilon", guarantee.exact().epsilon());
      g.put("delta", guarantee.delta());
      g.put("private", seed == null);
      out.println(Json.write(root));
    } else {
      out.printf(Locale.ROOT, "users=%d lambda=%s bits=%d randomness=%s%n", values.length, lambda,
          bits, seed == null ? "secure" : "seeded (not private)");
      out.printf(Locale.ROOT, "estimate of the sum  %.6f%n", estimate.value());
      out.printf(Locale.ROOT, "standard error       <= %.6f%n", estimate.standardError());
      out.printf(Locale.ROOT, "guarantee            mu = %s GDP, (epsilon, delta) = (%s, %s) per user's"
          + " value (exact analysis)%s%n", Numbers.up(guarantee.exact().mu()),
          Numbers.up(guarantee.exact().epsilon()), Numbers.up(guarantee.delta()),
          seed == null ? "" : "; NOT private: the run was seeded");
    }
    out.flush();
    return 0;
  }

  /** Largest --input file read (one value per user). */
  static final long MAX_INPUT_BYTES = 256L << 20;

  /** The named column as numbers; one record per user after the header ({@link CsvRecords}). */
  static double[] readColumn(Path file, String column) throws IOException {
    Inputs.inputFile("--input", file, MAX_INPUT_BYTES);
    List<Double> values = new ArrayList<>();
    int[] index = {-1};
    CsvRecords.read(file, "--input " + file, (cells, line) -> {
      if (index[0] < 0) {
        index[0] = Arrays.asList(cells).indexOf(column);
        if (index[0] < 0) {
          throw new IllegalArgumentException("column must be one of " + Arrays.toString(cells)
              + ", but was " + column);
        }
        return;
      }
      String where = file.getFileName() + " line " + line + ", column " + column;
      if (index[0] >= cells.length) {
        throw new IllegalArgumentException(where + " must have a value, but the row has "
            + cells.length + " cells");
      }
      double v;
      try {
        v = Double.parseDouble(cells[index[0]]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(where + " must be a number, but was '"
            + cells[index[0]] + "'");
      }
      Require.probability(where, v);
      values.add(v);
    });
    if (index[0] < 0) {
      throw new IllegalArgumentException("input must have a header row, but " + file + " is empty");
    }
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
