package dev.tradeoff.cli.amplify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.amplification.bernoulli.SearchBudget;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff amplify bernoulli}: Post_{A,α,k}(ε) with its certificate [BernAmp21,
 * Theorems 1 and 3], the lower bound (5)/(7) and the asymptote (2)/(6).
 */
@Command(
    name = "bernoulli",
    mixinStandardHelpOptions = true,
    description = "Rényi privacy left after releasing k Bernoulli samples of an (alpha, epsilon)-RDP"
        + " parameter in [c, 1-c]^d.")
public final class AmplifyBernoulliCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--alpha", required = true, description = "Rényi order alpha > 1")
  double alpha;

  @Option(names = "--epsilon", required = true, description = "RDP epsilon of the parameter, > 0")
  double epsilon;

  @Option(names = "--c", required = true, description = "range margin c in [0, 0.5)")
  double c;

  @Option(names = "--dimension", defaultValue = "1", description = "dimension d >= 1")
  int dimension;

  @Option(names = "--samples", defaultValue = "1", description = "samples k >= 1")
  int samples;

  @Option(names = "--gap", defaultValue = "1e-9", description = "gap tolerance (epsilon units)")
  double gap;

  @Option(names = "--max-nodes", defaultValue = "200000", description = "branch-and-bound budget")
  long maxNodes;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  /** Largest d and k: the certified search's channel grows with d·k. */
  static final int MAX_DIMENSION = 1000;
  /** Smallest and largest RDP ε of the parameter. */
  static final double MIN_RDP_EPSILON = 1e-3;
  static final double MAX_RDP_EPSILON = 1000;

  /** Smallest positive range margin c. */
  static final double MIN_MARGIN = 1e-4;

  /** Checks {@code --alpha} and {@code --c}, naming the flags. */
  static void checkSetting(double alpha, double c) {
    Inputs.range("--alpha", alpha, 1.01, 1e4,
        "a Renyi order: closer to 1 makes the certified search run for minutes");
    if (!(c == 0 || (c >= MIN_MARGIN && c < 0.5))) {
      throw new IllegalArgumentException("--c must be 0 or in [" + MIN_MARGIN + ", 0.5) (a range"
          + " margin: a smaller positive one makes the search run for minutes), but was " + c);
    }
  }

  @Override
  public Integer call() throws Exception {
    checkSetting(alpha, c);
    Inputs.count("--dimension", dimension, 1, MAX_DIMENSION);
    Inputs.count("--samples", samples, 1, MAX_DIMENSION);
    Inputs.range("--epsilon", epsilon, MIN_RDP_EPSILON, MAX_RDP_EPSILON,
        "an RDP epsilon: smaller ones make the certified search run for minutes");
    Inputs.range("--gap", gap, 1e-12, 1, "a gap tolerance in epsilon units");
    Inputs.count("--max-nodes", maxNodes, 1, 100_000_000);
    BernoulliSampling setting = new BernoulliSampling(alpha, c, dimension, samples);
    SearchBudget budget = new SearchBudget(gap, maxNodes);
    Amplification a = setting.amplify(epsilon, budget);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = Json.MAPPER;
      ObjectNode node = mapper.createObjectNode();
      node.put("amplifiedEpsilonAttained", a.post());
      node.put("lowerBound", a.lowerBound());
      node.put("upperBound", a.upperBound());
      if (Double.isFinite(a.asymptote())) {
        node.put("asymptote", a.asymptote());
      } else {
        node.putNull("asymptote"); // c = 0: no amplification, no finite asymptote
      }
      node.put("certified", a.certified());
      node.put("gap", a.gap());
      out.println(Json.write(node));
    } else {
      out.printf("Bernoulli sampling: alpha=%s c=%s d=%d k=%d epsilon=%s%n",
          alpha, c, dimension, samples, epsilon);
      out.printf("  %-46s %s%n", "guarantee: amplified RDP epsilon <= (use this)", Numbers.up(a.upperBound()));
      out.printf("  %-46s %s%n", "attained amplified epsilon (Post, lower end)", Numbers.down(a.post()));
      out.printf("  %-46s %s%n", "lower bound (Theorem 4)", Numbers.down(a.lowerBound()));
      out.printf("  %-46s %s%n", "asymptote d*k*r_alpha(c)", Double.isFinite(a.asymptote())
          ? Numbers.up(a.asymptote()) : "none (c = 0: no amplification)");
      out.printf("  %-46s %s%n", "certified (gap within tolerance)", a.certified());
      out.printf("  %-46s %s%n", "gap (guarantee - attained)", Numbers.up(a.gap()));
    }
    out.flush();
    return 0;
  }
}
