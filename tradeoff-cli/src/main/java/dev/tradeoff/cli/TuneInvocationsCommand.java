package dev.tradeoff.cli;

import dev.tradeoff.selection.expost.RunCountDistribution;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff tune invocations --epsilon E --epsilon-prime E' --candidates D [--json]}: the exact
 * law of the number of runs when Algorithm 3 (Geom_{e^{−ε′}} dropping, Theorem 11) tunes D copies of
 * one ε-DP mechanism ({@link RunCountDistribution}): mean, standard deviation and Pr[no run] (the
 * output is then ⊥).
 */
@Command(
    name = "invocations",
    mixinStandardHelpOptions = true,
    description = "Mean, std and Pr[none] of the number of runs of Algorithm 3 (Theorem 11).")
public final class TuneInvocationsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--epsilon", required = true, description = "epsilon of each copy")
  double epsilon;

  @Option(names = "--epsilon-prime", required = true, description = "epsilon' of the dropping level")
  double epsilonPrime;

  @Option(names = "--candidates", required = true, description = "number of copies d")
  int candidates;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    RunCountDistribution n = RunCountDistribution.of(epsilon, epsilonPrime, candidates);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("mean", n.mean());
    doc.put("std", n.standardDeviation());
    doc.put("probabilityNone", n.probabilityNone());
    doc.put("truncatedMass", n.truncatedMass());
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.compact(doc));
    } else {
      out.printf("candidates       %d copies, epsilon %s, epsilon' %s%n", candidates, epsilon, epsilonPrime);
      out.printf("mean runs        %.6f%n", n.mean());
      out.printf("std of runs      %.6f%n", n.standardDeviation());
      out.printf("Pr[no run]       %.6f%n", n.probabilityNone());
    }
    out.flush();
    return 0;
  }
}
