package dev.tradeoff.cli.aggregate;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.options.Choice;
import dev.tradeoff.cli.options.LedgerFlags;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ensemble.pate.Answer;
import dev.tradeoff.ensemble.pate.GnssRelease;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateCalibration;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.pate.VoteTable;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.mechanisms.random.Randomness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff aggregate}: private labels from teacher votes computed elsewhere, by GNMax or
 * Confident-GNMax (Papernot et al., <i>Scalable private learning with PATE</i>, ICLR 2018), with
 * the data-independent guarantee fixed before any vote is used and charged to the ledger before
 * anything is written ({@link PateRun}). Exit 0 on success, 2 for bad input (nothing charged,
 * nothing written), 3 when the guarantee exceeds {@code --epsilon} or the ledger's remainder.
 */
@Command(name = "aggregate", mixinStandardHelpOptions = true,
    description = {"Private labels from teacher votes (PATE 2018: GNMax, Confident-GNMax, "
        + "Interactive-GNMax); "
        + "writes DIR/labels.csv (id,label; an empty label is an abstention) and "
        + "DIR/manifest.json.",
        "",
        "Privacy unit: one training record, which changes one teacher's vote (teachers trained "
            + "on disjoint partitions). The charged guarantee is data-independent: exact "
            + "Gaussian-DP composition of every query's threshold check and GNMax step, or, "
            + "with --answer-until, the Gaussian-DP filter that stops before the budget could "
            + "be exceeded.",
        "Without sigmas, --epsilon picks them: GNMax sigma2 = sqrt(2Q)/mu; Confident-GNMax "
            + "sigma1 = 3.75 sigma2, T = 0.8 K (Papernot et al.'s MNIST ratios) and the smallest "
            + "sigma2 that meets (E, D) over all Q queries, mu the GDP parameter of (E, D).",
        "With --charge data-dependent and no --ss-*, --epsilon also picks the release: "
            + "beta = 0.4/lambda and, over a fixed grid of lambda, the least noise whose worst "
            + "case at lambda (labels and release) fits E (see docs/pate.md)."})
public final class AggregateCommand implements Callable<Integer> {

  /** Exit status when the guarantee exceeds the budget or the ledger's remainder. */
  public static final int OVER_BUDGET = Failures.BUDGET_EXCEEDED;

  /** The manifest's file name. */
  static final String MANIFEST = "manifest.json";

  /** The labels' file name. */
  static final String LABELS = "labels.csv";

  @Spec CommandSpec spec;

  @Option(names = "--votes", required = true, description = "Votes CSV (header; an id column; "
      + "one count column per class, or with --format predictions one column per teacher).")
  Path votes;

  @Option(names = "--format", defaultValue = "counts", converter = VoteFormat.Converter.class,
      description = "counts (default) or predictions.")
  VoteFormat format;

  @Option(names = "--classes", split = ",", description = "The classes, comma-separated (public "
      + "input; required with --format predictions).")
  List<String> classes;

  @Option(names = "--id-column", defaultValue = "id", description = "The id column (default id).")
  String idColumn;

  @Option(names = "--out", required = true, description = "Output directory (new or empty).")
  Path out;

  @Option(names = "--delta", required = true, converter = PrivacyParameters.Delta.class,
      description = "delta of the guarantee.")
  double delta;

  @Option(names = "--epsilon", converter = PrivacyParameters.Epsilon.class,
      description = "Total epsilon: picks the noise when no sigma is "
      + "given; with sigmas, a cap the run's guarantee must meet.")
  Double epsilon;

  @Option(names = "--aggregator", defaultValue = "confident-gnmax",
      converter = Aggregation.Converter.class,
      description = "gnmax, confident-gnmax (default) or interactive-gnmax (needs --student).")
  Aggregation aggregator;

  @Option(names = "--student", description = "interactive-gnmax: the student's class "
      + "probabilities, a CSV with the id column and one column per class of the votes.")
  Path student;

  @Option(names = "--student-confidence", description = "interactive-gnmax: gamma in [0, 1]; "
      + "where the teachers agree with the student and its top probability is >= gamma, the "
      + "student's class is released.")
  Double studentConfidence;

  @Option(names = "--threshold", description = "Confident-GNMax's threshold T.")
  Double threshold;

  @Option(names = "--sigma1", description = "Confident-GNMax's threshold noise sigma1.")
  Double sigma1;

  @Option(names = "--sigma2", description = "GNMax's noise sigma2.")
  Double sigma2;

  @Option(names = "--answer-until", paramLabel = "E,D",
      converter = PrivacyParameters.Budget.class, description = "E,D: answer queries in order "
      + "until the next could exceed (E, D) (needs the sigmas; D must equal --delta).")
  ApproxDp answerUntil;

  @Option(names = "--data-dependent", description = "Also print the data-dependent epsilon "
      + "(Papernot et al. 2018, Theorem 6): NOT a DP guarantee, it leaks about the votes; "
      + "never charged.")
  boolean dataDependent;

  @Option(names = "--charge", defaultValue = "data-independent",
      converter = ChargeBasis.Converter.class, description = "What the ledger "
      + "is charged: data-independent (default; valid for any votes) or data-dependent (opt-in: "
      + "the data-dependent RDP at --ss-order released with smooth-sensitivity noise, Papernot et "
      + "al. 2018 Section 4, its release cost included; the smaller of it and the worst case at "
      + "that order is charged).")
  ChargeBasis charge;

  @Option(names = "--ss-order", description = "With --charge data-dependent: the RDP order "
      + "lambda of the release (public, chosen before the votes are read).")
  Double ssOrder;

  @Option(names = "--ss-sigma", description = "With --charge data-dependent: the noise per unit "
      + "of smooth sensitivity.")
  Double ssSigma;

  @Option(names = "--ss-beta", description = "With --charge data-dependent: the smoothness beta "
      + "(default 0.4/lambda; must be < 1/(2 lambda)).")
  Double ssBeta;

  @Mixin LedgerFlags ledger;

  @Option(names = "--seed", description = "Reproducible run: NOT private, refused with --ledger.")
  Long seed;

  @Option(names = "--json", description = "Print the manifest as JSON.")
  boolean json;

  @Override
  public Integer call() {
    ApproxDp budget = budget();
    ledger.check(seed, true);
    VotesCsv.Read read = read();
    VoteTable table = read.table();
    checkEmptyOutput();
    boolean releaseByRule = releaseByRule();
    // with no noise given, the release rule picks the labels' mu too (before any vote is used)
    PateCalibration.ReleaseChoice rule = releaseByRule && sigma2 == null
        ? PateCalibration.release(budget) : null;
    PateAggregator agg = aggregator(table, read.classes(), rule);
    boolean filter = answerUntil != null;
    DpEvent event = filter
        ? new GuaranteeEvent(new GaussianDp(GaussianDpConversion.mu(budget.epsilon(), delta)))
        : PateRun.exAnteEvent(agg, table.size());
    if (releaseByRule && rule == null) {
      rule = PateCalibration.release(budget, event);
    }
    GnssRelease gnss = rule != null ? rule.release() : gnss();
    ApproxDp guarantee = filter ? budget : PateRun.guarantee(event, delta);
    // with the data-dependent charge the worst case is the run's RDP at lambda plus the release
    ApproxDp worstCase = gnss == null ? guarantee
        : new ApproxDp(gnss.dataIndependentEpsilon(event, delta), delta);
    if (gnss != null) {
      gnss.requireConditions(agg, table.classes());
    }
    if (epsilon != null && worstCase.epsilon() > epsilon) {
      spec.commandLine().getErr().println("tradeoff: the guarantee of these sigmas over "
          + table.size() + " queries, epsilon = " + Numbers.up(worstCase.epsilon())
          + ", exceeds --epsilon " + epsilon + "; nothing charged or written");
      return OVER_BUDGET;
    }
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    LedgerEntry entry = null;
    PateRun run;
    GnssRelease.Released released = null;
    try (PrivacyLedger l = ledger.location() == null ? null : ledger.open()) {
      if (gnss == null) {
        if (l != null) {
          entry = l.charge("aggregate " + votes.getFileName(), new Charge(event, guarantee),
              commandLine());
        }
        run = filter ? PateRun.answerUntil(table, agg, budget, random)
            : PateRun.allQueries(table, agg, delta, random);
      } else {
        // reserved at the worst case before any vote is used, settled at the smaller charge
        Reservation reservation = l == null ? null : l.reserve("aggregate " + votes.getFileName()
            + " [charge: data-dependent, released by smooth sensitivity (Papernot et al. 2018, "
            + "Section 4)]", worstCase);
        run = filter ? PateRun.answerUntil(table, agg, budget, random)
            : PateRun.allQueries(table, agg, delta, random);
        released = gnss.release(run, table, agg, delta, random);
        if (l != null) {
          entry = l.commit(reservation, released.charged());
        }
      }
    } catch (BudgetExceededException e) {
      spec.commandLine().getErr().println("tradeoff: " + e.getMessage());
      return OVER_BUDGET;
    }
    PateRun.DataDependent dd = dataDependent ? run.dataDependent(table, agg, RDP_ORDERS, delta)
        : null;
    Map<String, Object> manifest = manifest(table, read.classes(), agg, run, dd, released, entry);
    write(table, read.classes(), run, manifest);
    var o = spec.commandLine().getOut();
    if (json) {
      o.println(Json.write(manifest));
    } else {
      long reinforced = run.answers().stream().filter(x -> x instanceof Answer.Reinforced)
          .count();
      o.println("labelled " + run.answered() + " of " + table.size() + " queries by the teachers ("
          + (reinforced > 0 ? reinforced + " by the student, " : "")
          + (run.processed() - run.answered() - reinforced) + " abstained, "
          + (table.size() - run.processed()) + " not reached) into " + out.toAbsolutePath()
          + "; data-independent guarantee epsilon = " + Numbers.up(run.guarantee().epsilon())
          + ", delta = " + Numbers.up(delta) + (seed != null ? " [seeded: not private]" : ""));
      if (released != null) {
        o.println("data-dependent epsilon, released by smooth sensitivity (its cost included; "
            + "an estimate at these votes, not a worst case) = " + Numbers.up(released.epsilon())
            + " at order " + gnss.order() + "; charged: " + (released.dataDependentCharged()
                ? "data-dependent" : "the worst case at that order, which is smaller")
            + " epsilon = " + Numbers.up(released.charged().epsilon()));
      }
      if (dd != null) {
        o.println("data-dependent epsilon (NOT a DP guarantee; it leaks about the votes) = "
            + Numbers.up(dd.epsilon()));
      }
    }
    o.flush();
    return 0;
  }

  private ApproxDp budget() {
    if (answerUntil != null) {
      if (answerUntil.delta() != delta) {
        throw new IllegalArgumentException("--answer-until delta must equal --delta " + delta
            + ", but was " + answerUntil.delta());
      }
      if (epsilon != null) {
        throw new IllegalArgumentException("--epsilon must not be combined with --answer-until "
            + "(its EPSILON is the budget)");
      }
      if (sigma2 == null) {
        throw new IllegalArgumentException("--answer-until needs the noise: --sigma2 (and "
            + "--threshold, --sigma1 for confident-gnmax)");
      }
      return answerUntil;
    }
    if (epsilon != null) {
      return new ApproxDp(epsilon, delta);
    }
    if (sigma2 == null) {
      throw new IllegalArgumentException("--epsilon or --sigma2 must be given: the noise is "
          + "either chosen from the budget or given");
    }
    return null;
  }

  /**
   * Whether the release parameters are chosen by {@link PateCalibration#release}: --charge
   * data-dependent with --epsilon and none of --ss-order, --ss-sigma, --ss-beta.
   */
  private boolean releaseByRule() {
    boolean given = ssOrder != null || ssSigma != null || ssBeta != null;
    if (charge == ChargeBasis.DATA_INDEPENDENT) {
      if (given) {
        throw new IllegalArgumentException("--ss-order, --ss-sigma and --ss-beta belong to "
            + "--charge data-dependent, but --charge was data-independent");
      }
      return false;
    }
    if (dataDependent) {
      throw new IllegalArgumentException("--data-dependent prints the exact data-dependent "
          + "epsilon, which would undo the private release of --charge data-dependent; give "
          + "one of them");
    }
    if (!given && epsilon == null) {
      throw new IllegalArgumentException("--charge data-dependent needs --epsilon (the rule "
          + "then picks the release) or --ss-order and --ss-sigma (public, fixed before the "
          + "votes are read)");
    }
    return !given;
  }

  /** The release of --charge data-dependent with its --ss-* given; null otherwise. */
  private GnssRelease gnss() {
    if (charge == ChargeBasis.DATA_INDEPENDENT) {
      return null;
    }
    if (ssOrder == null || ssSigma == null) {
      throw new IllegalArgumentException("--charge data-dependent needs --ss-order and "
          + "--ss-sigma together (or neither, with --epsilon, to let the rule choose)");
    }
    Inputs.magnitude("--ss-order", ssOrder);
    Inputs.noise("--ss-sigma", ssSigma);
    return ssBeta == null ? GnssRelease.of(ssOrder, ssSigma)
        : new GnssRelease(ssOrder, ssBeta, ssSigma);
  }

  private PateAggregator aggregator(VoteTable table, List<String> classNames,
      PateCalibration.ReleaseChoice rule) {
    boolean confident = aggregator.confident();
    boolean interactive = aggregator == Aggregation.INTERACTIVE_GNMAX;
    if (interactive != (student != null) || interactive != (studentConfidence != null)) {
      throw new IllegalArgumentException("--student and --student-confidence go together with "
          + "--aggregator interactive-gnmax, but --aggregator was " + Choice.name(aggregator));
    }
    if (interactive && sigma2 == null) {
      throw new IllegalArgumentException("interactive-gnmax needs --threshold, --sigma1 and "
          + "--sigma2 (no rule chooses them)");
    }
    if (!confident && (threshold != null || sigma1 != null)) {
      throw new IllegalArgumentException("--threshold and --sigma1 belong to confident-gnmax, "
          + "but --aggregator was gnmax");
    }
    if (sigma2 == null) {
      if (threshold != null || sigma1 != null) {
        throw new IllegalArgumentException("--threshold and --sigma1 need --sigma2 too (or "
            + "none of them, to let --epsilon choose)");
      }
      if (rule != null) {
        return confident
            ? PateCalibration.confidentGnmax(rule.labelsMu(), table.size(), table.teachers())
            : PateCalibration.gnmax(rule.labelsMu(), table.size());
      }
      ApproxDp target = new ApproxDp(epsilon, delta);
      return confident ? PateCalibration.confidentGnmax(target, table.size(), table.teachers())
          : PateCalibration.gnmax(target, table.size());
    }
    Inputs.noise("--sigma2", sigma2);
    if (!confident) {
      return new PateAggregator.Gnmax(sigma2);
    }
    if (threshold == null || sigma1 == null) {
      throw new IllegalArgumentException("confident-gnmax needs --threshold, --sigma1 and "
          + "--sigma2 together (or none of them, to let --epsilon choose)");
    }
    Inputs.noise("--sigma1", sigma1);
    Inputs.magnitude("--threshold", threshold);
    if (interactive) {
      Inputs.probability("--student-confidence", studentConfidence);
      return new PateAggregator.InteractiveGnmax(threshold, sigma1, sigma2, studentConfidence,
          VotesCsv.student(student, idColumn, classNames, table));
    }
    return new PateAggregator.ConfidentGnmax(threshold, sigma1, sigma2);
  }

  private VotesCsv.Read read() {
    return switch (format) {
      case COUNTS -> {
        if (classes != null) {
          throw new IllegalArgumentException("--classes belongs to --format predictions; the "
              + "counts form names its classes in its header");
        }
        yield VotesCsv.counts(votes, idColumn);
      }
      case PREDICTIONS -> {
        if (classes == null || classes.size() < 2
            || classes.stream().distinct().count() != classes.size()) {
          throw new IllegalArgumentException("--classes must list at least two distinct "
              + "classes with --format predictions, but was " + classes);
        }
        yield VotesCsv.predictions(votes, idColumn, classes);
      }
    };
  }

  private void checkEmptyOutput() {
    Inputs.outputDirectory("--out", out);
    try (Stream<Path> entries = Files.list(out)) {
      if (entries.findAny().isPresent()) {
        throw new IllegalArgumentException("--out must be a new or empty directory, but " + out
            + " holds files");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + out + " cannot be listed (" + e.getMessage()
          + ")", e);
    }
  }

  private String commandLine() {
    List<String> all = new ArrayList<>(List.of("tradeoff"));
    all.addAll(spec.commandLine().getParseResult().originalArgs());
    return String.join(" ", all);
  }

  private Map<String, Object> manifest(VoteTable table, List<String> classNames,
      PateAggregator agg, PateRun run, PateRun.DataDependent dd, GnssRelease.Released released,
      LedgerEntry entry) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", "aggregate");
    m.put("votes", votes.toAbsolutePath().toString());
    m.put("labels", out.resolve(LABELS).toAbsolutePath().toString());
    m.put("abstention", "an empty label");
    Map<String, Object> a = new LinkedHashMap<>();
    if (agg instanceof PateAggregator.ConfidentGnmax c) {
      a.put("name", "confident-gnmax");
      a.put("threshold", c.threshold());
      a.put("sigma1", c.sigma1());
    } else if (agg instanceof PateAggregator.InteractiveGnmax i) {
      a.put("name", "interactive-gnmax");
      a.put("threshold", i.threshold());
      a.put("sigma1", i.sigma1());
      a.put("studentConfidence", i.studentConfidence());
      a.put("student", student.toAbsolutePath().toString());
    } else {
      a.put("name", "gnmax");
    }
    a.put("sigma2", agg.sigma2());
    a.put("chosenBy", sigma2 == null ? (released != null
        ? "rule: --epsilon with the smooth-sensitivity release (PateCalibration.release)"
        : "rule: --epsilon over all queries (PateCalibration)") : "given");
    m.put("aggregator", a);
    m.put("teachers", table.teachers());
    m.put("classes", classNames);
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("queries", table.size());
    counts.put("processed", run.processed());
    long reinforced = run.answers().stream().filter(x -> x instanceof Answer.Reinforced).count();
    counts.put("answered", run.answered());
    if (agg instanceof PateAggregator.InteractiveGnmax) {
      counts.put("studentLabels", reinforced);
    }
    counts.put("abstained", run.processed() - run.answered() - reinforced);
    counts.put("notReached", table.size() - run.processed());
    m.put("counts", counts);
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("epsilon", run.guarantee().epsilon());
    g.put("delta", run.guarantee().delta());
    g.put("kind", "data-independent");
    g.put("accounting", answerUntil != null
        ? "Gaussian-DP filter (Smith and Thakurta 2022) at the --answer-until budget"
        : "exact Gaussian-DP composition of every query's threshold check and GNMax step");
    g.put("rdpEpsilon", new RdpAccountant().account(run.event(), Neighbouring.ADD_OR_REMOVE_ONE)
        .epsilon(delta));
    m.put(released == null ? "guarantee" : "dataIndependentGuarantee", g);
    if (released != null) {
      GnssRelease p = released.parameters();
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("epsilon", released.charged().epsilon());
      c.put("delta", delta);
      c.put("kind", released.dataDependentCharged()
          ? "data-dependent, released by smooth sensitivity (Papernot et al. 2018, Section 4 and "
              + "Theorem 23), its release cost included: an estimate at these votes, not a worst "
              + "case"
          : "data-independent at the release order, release cost included (smaller than the "
              + "released data-dependent epsilon)");
      c.put("dataDependentEpsilon", released.epsilon());
      c.put("dataIndependentEpsilon", released.dataIndependentEpsilon());
      c.put("releasedRdp", released.releasedRdp());
      c.put("order", p.order());
      c.put("beta", p.beta());
      c.put("sigma", p.sigma());
      c.put("releaseRdpCost", p.cost());
      c.put("chosenBy", ssOrder == null
          ? "rule: --epsilon, before any vote is read (PateCalibration.release)" : "given");
      m.put("guarantee", c);
    }
    if (dd != null) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("epsilon", dd.epsilon());
      d.put("delta", dd.delta());
      d.put("order", dd.order());
      d.put("kind", "data-dependent RDP (Papernot et al. 2018, Theorem 6 with Proposition 7): "
          + "NOT a differential privacy guarantee; it is a function of the votes, never charged");
      m.put("dataDependent", d);
    } else if (released != null) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("epsilon", released.epsilon());
      d.put("delta", delta);
      d.put("order", released.parameters().order());
      d.put("kind", "data-dependent, released by smooth sensitivity (Papernot et al. 2018, "
          + "Section 4), its release cost included: a private estimate at these votes, not a "
          + "worst case");
      m.put("dataDependent", d);
    }
    m.put("randomness", seed == null ? "secure" : "seeded(" + seed + "): reproducible, NOT "
        + "private");
    if (entry != null) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("path", ledger.location().shown());
      l.put("id", entry.id());
      m.put("ledger", l);
    }
    return m;
  }

  /** Orders for the data-dependent curve: those of Papernot et al.'s analysis, 1.5 to 1000. */
  static final double[] RDP_ORDERS = {1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24,
      28, 32, 40, 48, 56, 64, 80, 96, 128, 160, 192, 256, 384, 512, 1000};

  private void write(VoteTable table, List<String> classNames, PateRun run,
      Map<String, Object> manifest) {
    StringBuilder csv = new StringBuilder("id,label\n");
    for (int q = 0; q < run.processed(); q++) {
      csv.append(CsvRecords.quote(table.rows().get(q).id())).append(',');
      if (run.answers().get(q) instanceof Answer.Labelled l) {
        csv.append(CsvRecords.quote(classNames.get(l.label())));
      } else if (run.answers().get(q) instanceof Answer.Reinforced r) {
        csv.append(CsvRecords.quote(classNames.get(r.label())));
      }
      csv.append('\n');
    }
    try {
      writeAtomically(out.resolve(LABELS), csv.toString());
      writeAtomically(out.resolve(MANIFEST), Json.write(manifest) + "\n");
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + out + " cannot be written (" + e.getMessage()
          + "); the run was charged", e);
    }
  }

  private static void writeAtomically(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
  }
}
