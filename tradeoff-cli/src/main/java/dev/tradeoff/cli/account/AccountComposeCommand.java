package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.composition.KairouzComposition;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.methods.Accountants;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Report;
import dev.tradeoff.cli.options.MechanismSpecs;
import dev.tradeoff.cli.options.PrivacyParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tradeoff account compose}: the total guarantee of a sequence of mechanisms. */
@Command(
    name = "compose",
    mixinStandardHelpOptions = true,
    description = {
      "Compose mechanisms and report the total (epsilon, delta).",
      "Give --delta to get epsilon, or --epsilon to get delta. Every method also gives a lower"
          + " bound (epsilonLower / deltaLower): the true value lies between the two. pld brackets"
          + " it by its optimistic discretization, gdp is exact (the bounds agree to the last"
          + " bits), and the methods that give only an upper bound (rdp, zcdp, kairouz, basic,"
          + " optimal) say 0. With --method kairouz,"
          + " --delta-slack gives the closed-form bound of Kairouz-Oh-Viswanath directly."
    })
final class AccountComposeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--mechanism",
      required = true,
      paramLabel = "SPEC",
      converter = MechanismSpecs.Converter.class,
      description = "Repeatable. " + MechanismSpecs.SYNTAX)
  List<MechanismSpecs.Mechanism> mechanisms;

  @Option(
      names = "--count",
      paramLabel = "K",
      description = "Repeatable: how many times each --mechanism runs, in order (default 1).")
  List<Integer> counts = new ArrayList<>();

  @Option(names = "--delta", paramLabel = "D", converter = PrivacyParameters.Delta.class,
      description = "Target delta: report epsilon(delta).")
  Double delta;

  @Option(names = "--epsilon", paramLabel = "E", converter = PrivacyParameters.EpsilonOrZero.class,
      description = "Target epsilon: report delta(epsilon).")
  Double epsilon;

  @Option(
      names = "--delta-slack",
      paramLabel = "D'",
      converter = PrivacyParameters.Delta.class,
      description = "kairouz only: the slack delta' of the closed-form bound.")
  Double deltaSlack;

  @Option(
      names = "--method",
      defaultValue = "pld",
      converter = PrivacyParameters.MethodName.class,
      description = "basic, kairouz, optimal, rdp, zcdp, gdp or pld (default: ${DEFAULT-VALUE}).")
  AccountingMethod accountingMethod;

  @Mixin NeighbouringFlag neighbouring;

  @Option(
      names = "--discretization",
      paramLabel = "INTERVAL",
      description = "pld only: the finest loss grid spacing, in [1e-7, 1] (default "
          + PldAccountant.DEFAULT_INTERVAL + ", coarsened beyond "
          + PldAccountant.DEFAULT_MAX_POINTS + " composed grid points); when given, it is kept"
          + " up to " + PldAccountant.MAX_COMPOSED_POINTS + " grid points and coarsened beyond,"
          + " which widens the bracket.")
  Double discretization;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  /** Most self-compositions of one mechanism (the accountants' cost grows with log or sqrt of it). */
  static final int MAX_COUNT = 10_000_000;

  @Override
  public Integer call() {
    Neighbouring relation = neighbouring.relation;
    List<DpEvent> events = new ArrayList<>();
    List<Map<String, Object>> described = new ArrayList<>();
    if (!counts.isEmpty() && counts.size() != mechanisms.size()) {
      throw new IllegalArgumentException(
          "--count must be given once per --mechanism (" + mechanisms.size() + "), but was given " + counts.size() + " times");
    }
    for (int i = 0; i < mechanisms.size(); i++) {
      int count = counts.isEmpty() ? 1 : Inputs.count("--count", counts.get(i), 1, MAX_COUNT);
      DpEvent event = mechanisms.get(i).event();
      events.add(count == 1 ? event : new SelfComposedEvent(event, count));
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("mechanism", mechanisms.get(i).text());
      d.put("count", count);
      described.add(d);
    }
    DpEvent total = events.size() == 1 ? events.get(0) : new ComposedEvent(events);

    Report report = new Report().put("method", accountingMethod.cliName());
    if (deltaSlack != null) {
      if (accountingMethod != AccountingMethod.KAIROUZ) {
        throw new IllegalArgumentException("--delta-slack applies to --method kairouz only, but method was "
            + accountingMethod.cliName());
      }
      if (delta != null || epsilon != null) {
        throw new IllegalArgumentException("--delta-slack must be given without --delta and --epsilon");
      }
      if (discretization != null) {
        throw new IllegalArgumentException(
            "--discretization applies to --method pld only, but method was "
                + accountingMethod.cliName());
      }
      ApproxDp bound = KairouzComposition.compose(total, deltaSlack);
      report.put("epsilon", bound.epsilon()).put("delta", bound.delta()).put("deltaSlack", deltaSlack);
    } else {
      if ((delta == null) == (epsilon == null)) {
        throw new IllegalArgumentException("exactly one of --delta and --epsilon must be given");
      }
      Accountant accountant = pldAccountant(accountingMethod, discretization);
      PrivacyProfile profile = accountant.account(total, relation);
      if (delta != null) {
        EpsilonBounds bounds = profile.epsilonBounds(delta);
        report.put("epsilon", bounds.upper()).put("delta", delta)
            .putRoundedDown("epsilonLower", bounds.lower())
            .putBracket("bracket", "ε", bounds.lower(), bounds.upper());
      } else {
        DeltaBounds bounds = profile.deltaBounds(epsilon);
        report.put("epsilon", epsilon).put("delta", bounds.upper())
            .putRoundedDown("deltaLower", bounds.lower())
            .putBracket("bracket", "δ", bounds.lower(), bounds.upper());
      }
    }
    report.put("neighbouring", NeighbouringFlag.name(relation)).put("mechanisms", described);
    report.print(spec.commandLine().getOut(), json);
    return 0;
  }

  /** The accountant for the method; --discretization sets the PLD grid and is refused elsewhere. */
  static Accountant pldAccountant(AccountingMethod method, Double discretization) {
    if (discretization == null) {
      return Accountants.forMethod(method);
    }
    if (method != AccountingMethod.PLD) {
      throw new IllegalArgumentException(
          "--discretization applies to --method pld only, but method was " + method.cliName());
    }
    return new PldAccountant(
        Require.inClosedRange("--discretization", discretization, 1e-7, 1),
        PldAccountant.DEFAULT_TAIL_MASS,
        PldAccountant.MAX_COMPOSED_POINTS);
  }
}
