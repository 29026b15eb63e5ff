package dev.tradeoff.cli.audit;

import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.AuditResult;
import dev.tradeoff.audit.PrivacyAuditor;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.mechanisms.random.Randomness;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code tradeoff audit}: statistical privacy audit of a mechanism (see {@link PrivacyAuditor}).
 * Exit status 0 when the certified lower bound on ε does not exceed the claimed ε, 1 when the audit
 * proves a violation, 2 on bad input.
 */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Draws outputs of a mechanism on two neighbouring inputs and certifies a lower bound on its"
          + " epsilon (Clopper-Pearson intervals, Bonferroni over the events certified, events"
          + " chosen on one half of the samples and certified on the other).",
      "Exit status: 0 passed, 1 violation detected, 2 bad input."
    })
public final class AuditCommand implements Callable<Integer> {

  /** Exit status when the audit proves that the mechanism violates its claim. */
  public static final int VIOLATION = 1;

  @picocli.CommandLine.Spec CommandSpec spec;

  @Option(
      names = "--mechanism",
      required = true,
      paramLabel = "SPEC",
      description = "The mechanism to audit: " + AuditCases.SYNTAX)
  String mechanism;

  @Option(
      names = "--samples",
      defaultValue = "1000000",
      description = "Outputs drawn on EACH of the two inputs (default ${DEFAULT-VALUE}).")
  long samples;

  @Option(
      names = "--seed",
      description = "Seed for a reproducible audit (default: secure randomness, not reproducible).")
  Long seed;

  @Option(
      names = "--confidence",
      defaultValue = "0.95",
      description = "Confidence level of the lower bound (default ${DEFAULT-VALUE}).")
  double confidence;

  @Option(
      names = "--certified-events",
      defaultValue = "8",
      description = "Event/direction pairs certified, Bonferroni-corrected (default ${DEFAULT-VALUE}).")
  int certifiedEvents;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  /** Fewest and most samples per input (the audit's time is linear in them). */
  static final long MIN_SAMPLES = 100;
  static final long MAX_SAMPLES = 100_000_000;
  /** Samples per input of the pilot that times a long audit. */
  static final long PILOT_SAMPLES = 20_000;

  @Override
  public Integer call() {
    Inputs.count("--samples", samples, MIN_SAMPLES, MAX_SAMPLES);
    Inputs.rangeAbove("--confidence", confidence, 0.5, 0.999999, "a confidence level");
    Inputs.count("--certified-events", certifiedEvents, 1, 10_000);
    PrivacyAuditor auditor = new PrivacyAuditor(samples, confidence, certifiedEvents);
    AuditCase<?, ?> auditCase = AuditCases.parse(mechanism);
    RandomGenerator random =
        seed == null ? Randomness.secure() : Randomness.seeded(seed);
    Progress progress = Progress.of(spec);
    if (samples > 10 * PILOT_SAMPLES) {
      // the audit's time is linear in the samples: time a small audit (its own randomness, so a
      // seeded audit's result does not change) and scale it
      long t0 = System.nanoTime();
      new PrivacyAuditor(PILOT_SAMPLES, confidence, certifiedEvents)
          .audit(AuditCases.parse(mechanism), Randomness.secure());
      double pilot = (System.nanoTime() - t0) / 1e9;
      progress.expect(pilot * samples / PILOT_SAMPLES, "2 x " + samples + " samples, timed on a"
          + " pilot of " + PILOT_SAMPLES);
    }
    progress.phase("drawing and counting 2 x " + samples + " outputs");
    AuditResult result = auditor.audit(auditCase, random);
    Map<String, Object> report = report(result);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(report));
    } else {
      report.forEach((key, value) -> out.printf("%-22s %s%n", key, Numbers.shown(value)));
    }
    out.flush();
    return result.passed() ? 0 : VIOLATION;
  }

  private Map<String, Object> report(AuditResult result) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("mechanism", result.mechanism());
    report.put("claimedEpsilon", result.claimedEpsilon());
    report.put("delta", result.delta());
    report.put("epsilonLowerBound", result.epsilonLowerBound());
    report.put("passed", result.passed());
    report.put("confidence", result.confidence());
    report.put("samplesPerInput", result.samplesPerInput());
    report.put("certificationSamples", result.certificationSamples());
    report.put("bestEvent", result.bestEvent());
    report.put("direction", result.direction());
    report.put("countNumerator", result.countNumerator());
    report.put("countDenominator", result.countDenominator());
    report.put("candidateEvents", result.candidateEvents());
    report.put("certifiedEvents", result.certifiedEvents());
    report.put("seed", seed);
    return report;
  }
}
