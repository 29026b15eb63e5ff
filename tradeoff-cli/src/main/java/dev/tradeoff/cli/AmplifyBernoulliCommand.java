package dev.tradeoff.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.amplification.bernoulli.Amplification;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.amplification.bernoulli.SearchBudget;
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

  @Override
  public Integer call() throws Exception {
    BernoulliSampling setting = new BernoulliSampling(alpha, c, dimension, samples);
    SearchBudget budget = new SearchBudget(gap, maxNodes);
    Amplification a = setting.amplify(epsilon, budget);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = Json.MAPPER;
      ObjectNode node = mapper.createObjectNode();
      node.put("post", a.post());
      node.put("lowerBound", a.lowerBound());
      node.put("upperBound", a.upperBound());
      node.put("asymptote", a.asymptote());
      node.put("certified", a.certified());
      node.put("gap", a.gap());
      out.println(mapper.writeValueAsString(node));
    } else {
      out.printf("Bernoulli sampling: alpha=%s c=%s d=%d k=%d epsilon=%s%n",
          alpha, c, dimension, samples, epsilon);
      out.printf("  %-12s %.9g%n", "post", a.post());
      out.printf("  %-12s %.9g%n", "lowerBound", a.lowerBound());
      out.printf("  %-12s %.9g%n", "upperBound", a.upperBound());
      out.printf("  %-12s %.9g%n", "asymptote", a.asymptote());
      out.printf("  %-12s %s%n", "certified", a.certified());
      out.printf("  %-12s %.3g%n", "gap", a.gap());
    }
    out.flush();
    return 0;
  }
}
