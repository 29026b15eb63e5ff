package dev.tradeoff.cli.shuffle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.ShuffleTable;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.io.PrintWriter;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff shuffle analyze}: the paper's f-DP claim for P^{0/1}_{n,λ} / P^R_{n,λ,r} checked
 * against the exact worst-case analysis, with the Cheu et al. and Feldman–McMillan–Talwar bounds.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = "Privacy of the shuffled sum protocol: paper's claim vs exact analysis.")
public final class ShuffleAnalyzeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--users", required = true, description = "number of users n >= 2")
  int users;

  @Option(names = "--lambda", required = true, description = "expected number of fair coins, in (0, n)")
  double lambda;

  @Option(names = "--bits", defaultValue = "1", description = "bits r per user (1: binary sum)")
  int bits;

  @Option(names = "--delta", defaultValue = "1e-6", converter = PrivacyParameters.Delta.class,
      description = "delta for epsilon values")
  double delta;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    ShuffleParameters parameters = parameters(users, lambda, bits);
    ShuffleReport report = ShuffleReport.of(parameters, bits, delta);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = Json.MAPPER;
      out.println(Json.write(toJson(mapper, report)));
    } else {
      ShuffleTable.print(out, report);
    }
    out.flush();
    return 0;
  }

  /** Most users the exact analysis runs on (its cost grows with n). */
  static final int MAX_USERS = 1_000_000;
  /** Most bits r per value. */
  static final int MAX_BITS = 64;

  /** Checks {@code --users}, {@code --lambda} and {@code --bits}, naming the flags. */
  static ShuffleParameters parameters(int users, double lambda, int bits) {
    Inputs.count("--users", users, 2, MAX_USERS);
    Inputs.count("--bits", bits, 1, MAX_BITS);
    if (!(lambda >= 1e-3 && lambda < users)) {
      throw new IllegalArgumentException("--lambda must be in [0.001, " + users
          + ") (the expected number of fair coins, below the number of users), but was " + lambda);
    }
    return new ShuffleParameters(users, lambda);
  }

  static ObjectNode toJson(ObjectMapper mapper, ShuffleReport report) {
    ObjectNode root = mapper.createObjectNode();
    root.put("users", report.parameters().users());
    root.put("lambda", report.parameters().lambda());
    root.put("bits", report.bits());
    ObjectNode paper = root.putObject("paper");
    putNumber(paper, "mu", report.paper().mu());
    paper.set("tradeoff", points(mapper, report.paper().tradeoff()));
    paper.put("validLowerBound", report.paper().validLowerBound());
    paper.put("muValid", report.paper().muValid());
    putNumber(paper, "maxExcess", report.paper().maxExcess());
    ObjectNode exact = root.putObject("exact");
    exact.put("method", report.exact().method());
    putNumber(exact, "mu", report.exact().mu());
    putNumber(exact, "epsilon", report.exact().epsilon());
    exact.put("delta", report.exact().delta());
    exact.set("tradeoff", points(mapper, report.exact().tradeoff()));
    exact.put("tradeoffGap", report.exact().tradeoffGap());
    ObjectNode cheu = root.putObject("cheu");
    putOptional(cheu, "epsilon", report.cheuEpsilon());
    cheu.put("applicable", report.cheuEpsilon().isPresent());
    ObjectNode amplification = root.putObject("amplification");
    putOptional(amplification, "epsilon", report.amplificationEpsilon());
    root.put("localEpsilon", report.localEpsilon());
    ObjectNode guarantee = root.putObject("guarantee");
    guarantee.put("source", "exact");
    putNumber(guarantee, "mu", report.exact().mu());
    putNumber(guarantee, "epsilon", report.exact().epsilon());
    guarantee.put("delta", report.delta());
    return root;
  }

  private static ArrayNode points(ObjectMapper mapper, double[][] points) {
    ArrayNode array = mapper.createArrayNode();
    for (double[] p : points) {
      array.addArray().add(p[0]).add(p[1]);
    }
    return array;
  }

  private static void putNumber(ObjectNode node, String name, double value) {
    if (Double.isFinite(value)) {
      node.put(name, value);
    } else {
      node.putNull(name);
    }
  }

  private static void putOptional(ObjectNode node, String name, OptionalDouble value) {
    if (value.isPresent()) {
      node.put(name, value.getAsDouble());
    } else {
      node.putNull(name);
    }
  }
}
