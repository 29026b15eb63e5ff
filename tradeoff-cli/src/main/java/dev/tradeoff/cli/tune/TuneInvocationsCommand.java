package dev.tradeoff.cli.tune;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.options.PrivacyParameters;
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

  @Option(names = "--epsilon", required = true, converter = PrivacyParameters.Epsilon.class,
      description = "epsilon of each copy")
  double epsilon;

  @Option(names = "--epsilon-prime", required = true, converter = PrivacyParameters.Epsilon.class,
      description = "epsilon' of the dropping level")
  double epsilonPrime;

  @Option(names = "--candidates", required = true, description = "number of copies d")
  int candidates;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Inputs.count("--candidates", candidates, 1, 10_000_000);
    RunCountDistribution n = RunCountDistribution.of(epsilon, epsilonPrime, candidates);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("meanRuns", n.mean());
    doc.put("stdRuns", n.standardDeviation());
    doc.put("probabilityNoRun", n.probabilityNone());
    doc.put("truncatedMass", n.truncatedMass());
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(doc));
    } else {
      out.printf("candidates       %d copies, epsilon %s, epsilon' %s%n", candidates, epsilon, epsilonPrime);
      out.printf("mean runs        %s%n", Numbers.nearest(n.mean()));
      out.printf("std of runs      %s%n", Numbers.nearest(n.standardDeviation()));
      out.printf("Pr[no run]       %s%n", Numbers.nearest(n.probabilityNone()));
    }
    out.flush();
    return 0;
  }
}
