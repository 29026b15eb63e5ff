package dev.tradeoff.cli.ledger;

import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.LedgerAmounts;
import dev.tradeoff.cli.options.LedgerLocation;
import dev.tradeoff.cli.options.MechanismSpecs;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ledger.PostgresLedger;
import dev.tradeoff.ledger.PrivacyLedger;
import dev.tradeoff.ledger.SqliteLedger;
import java.io.PrintWriter;
import java.math.RoundingMode;
import java.nio.file.Path;
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

/**
 * {@code tradeoff ledger}: inspect a persistent privacy-budget ledger ({@link PrivacyLedger}: an
 * SQLite file, or a dataset's budget in a team's PostgreSQL database). Every subcommand takes its
 * ledger as its argument, as {@code --ledger FILE|postgresql://HOST[:PORT]/DB} or from {@code
 * TRADEOFF_LEDGER} ({@link LedgerFile}), and {@code --dataset NAME}; there is no default ledger.
 * {@code ledger show FILE [--json]} lists the budget, what is spent (open reservations at
 * their worst case, rounded up), what remains (rounded down) and every charge: label, status,
 * reserved and charged amounts, timestamps and the process that made it. It only reads the file.
 */
@Command(
    name = "ledger",
    mixinStandardHelpOptions = true,
    description = "Create, inspect, charge and verify a privacy-budget ledger.",
    subcommands = {LedgerCommand.Show.class, LedgerCommand.Create.class,
        LedgerCommand.Remaining.class, LedgerCommand.Fits.class, LedgerCommand.Charge.class,
        LedgerCommand.History.class, LedgerCommand.Plot.class, LedgerCommand.Verify.class,
        LedgerCommand.Grant.class})
public final class LedgerCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code tradeoff ledger show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "List a ledger's budget, spent and remaining budget, and every charge.")
  public static final class Show implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      try (PrivacyLedger l = ledger.open()) {
        List<LedgerEntry> entries = l.entries();
        PrivacyGuarantee spent = l.spent();
        PrivacyGuarantee remaining = l.remaining();
        if (json) {
          Map<String, Object> doc = new LinkedHashMap<>();
          doc.put("ledger", l.location().toString());
          doc.put("kind", l.kind().name());
          doc.put("budget", LedgerAmounts.json(l.budget()));
          doc.put("spent", LedgerAmounts.json(spent));
          doc.put("remaining", LedgerAmounts.json(remaining));
          List<Map<String, Object>> rows = new ArrayList<>();
          for (LedgerEntry e : entries) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", e.id());
            row.put("label", e.label());
            row.put("status", e.status().name());
            row.put("kind", e.kind().name());
            row.put("reserved", LedgerAmounts.json(e.reserved()));
            row.put("charged", LedgerAmounts.json(e.charged()));
            row.put("reservedAt", e.reservedAt().toString());
            row.put("committedAt", e.committedAt().map(Object::toString).orElse(null));
            row.put("processId", e.processId());
            rows.add(row);
          }
          doc.put("entries", rows);
          out.println(Json.write(doc));
        } else {
          out.printf("ledger     %s%n", l.location());
          out.printf("kind       %s%n", l.kind());
          out.printf("budget     %s%n", LedgerAmounts.text(l.budget(), RoundingMode.DOWN));
          out.printf("spent      %s%n", LedgerAmounts.text(spent, RoundingMode.UP));
          out.printf("remaining  %s%n", LedgerAmounts.text(remaining, RoundingMode.DOWN));
          out.printf("entries    %d%n", entries.size());
          if (!entries.isEmpty()) {
            out.println();
            out.printf("%5s  %-9s  %-24s  %-24s  %-24s  %-24s  %s%n",
                "id", "status", "charged", "reserved", "reserved at", "committed at", "label");
            for (LedgerEntry e : entries) {
              out.printf("%5d  %-9s  %-24s  %-24s  %-24s  %-24s  %s%n", e.id(), e.status(),
                  LedgerAmounts.text(e.charged(), RoundingMode.UP),
                  LedgerAmounts.text(e.reserved(), RoundingMode.UP),
                  e.reservedAt(), e.committedAt().map(Object::toString).orElse("-"), e.label());
            }
          }
        }
      }
      out.flush();
      return 0;
    }
  }

  /** Exit status when a request would not fit the ledger's budget. */
  static final int DOES_NOT_FIT = 3;

  /** {@code tradeoff ledger create --ledger PATH --budget E,D [--filters SPEC]}. */
  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create an (epsilon, delta) ledger whose budget is spent through privacy"
          + " filters valid under fully adaptive composition (docs/ledger.md).")
  public static final class Create implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--budget", required = true, paramLabel = "E,D",
        converter = PrivacyParameters.Budget.class, description = "E,D: the budget")
    ApproxDp budget;

    @Option(names = "--filters", defaultValue = dev.tradeoff.ledger.LedgerPolicy.DEFAULT_TEXT,
        description = "how the budget is split between filters, fixed for the ledger's life:"
            + " gdp, rdp, basic, advanced, expost@ORDER, or shares such as"
            + " gdp:0.5,rdp:0.3,expost@16:0.1,advanced:0.1 (default ${DEFAULT-VALUE})")
    String filters;

    @Override
    public Integer call() {
      LedgerLocation where = ledger.toWrite();
      if (where.exists(ledger.dataset())) {
        throw new IllegalArgumentException("--ledger " + where + " already has dataset "
            + (ledger.dataset() == null ? LedgerLocation.DEFAULT_DATASET : ledger.dataset())
            + "; a budget is created once");
      }
      var policy = dev.tradeoff.ledger.LedgerPolicy.parse(filters, null,
          dev.tradeoff.ledger.LedgerPolicy.defaultEventDelta(budget));
      if (where.file() != null && !java.nio.file.Files.exists(where.file())) {
        Path file = where.file();
        try {
          java.nio.file.Files.delete(java.nio.file.Files.createFile(file));
        } catch (java.io.IOException e) {
          throw new IllegalArgumentException("--ledger cannot be created at " + file + " ("
              + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
      }
      try (PrivacyLedger l = where.create(ledger.dataset(), budget, policy)) {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("created %s: budget %s, filters %s, head %s%n", l.location(),
            LedgerAmounts.text(budget, RoundingMode.DOWN), policy.text(), l.verify().headHash());
        out.flush();
      }
      return 0;
    }
  }

  /** {@code tradeoff ledger remaining --ledger PATH [--json]}. */
  @Command(name = "remaining", mixinStandardHelpOptions = true,
      description = "What each filter has left, and the (epsilon, delta) an opaque charge may"
          + " still spend.")
  public static final class Remaining implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      try (PrivacyLedger l = ledger.open()) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("ledger", l.location().toString());
        doc.put("budget", LedgerAmounts.json(l.budget()));
        doc.put("policy", l.policy().map(p -> p.text()).orElse(null));
        doc.put("filters", l.policy().isPresent() ? l.remainingByFilter() : null);
        doc.put("remaining", LedgerAmounts.json(l.remaining()));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
          out.println(Json.write(doc));
        } else {
          out.printf("budget     %s%n", LedgerAmounts.text(l.budget(), RoundingMode.DOWN));
          out.printf("remaining  %s (an opaque charge)%n", LedgerAmounts.text(l.remaining(), RoundingMode.DOWN));
          if (l.policy().isPresent()) {
            l.remainingByFilter().forEach((k, v) -> out.printf("%-10s %s%n", k, v));
          }
        }
        out.flush();
      }
      return 0;
    }
  }

  /** Options shared by fits and charge. */
  abstract static class Request {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--mechanism", required = true, converter = MechanismSpecs.Converter.class,
        description = "the release, as `account compose` takes it: " + MechanismSpecs.SYNTAX)
    MechanismSpecs.Mechanism mechanism;

    @Option(names = "--count", defaultValue = "1", description = "how many releases (default 1)")
    int count;

    dev.tradeoff.accounting.budget.Charge charge(PrivacyLedger l, int n) {
      var event = mechanism.event();
      var e = n == 1 ? event : new dev.tradeoff.accounting.event.SelfComposedEvent(event, n);
      return dev.tradeoff.accounting.budget.Charge.of(e, l.policy().orElseThrow(
          () -> new IllegalArgumentException("--ledger " + l.location() + " has no (epsilon, delta)"
              + " budget")).eventDelta());
    }
  }

  /** {@code tradeoff ledger fits}: exit 0 if N more fit now, 3 if not; prints how many fit. */
  @Command(name = "fits", mixinStandardHelpOptions = true,
      description = "Whether N more releases would be admitted now (exit 0) or not (exit 3);"
          + " prints how many fit. Charges nothing.")
  public static final class Fits extends Request implements Callable<Integer> {
    @Override
    public Integer call() {
      Inputs.count("--count", count, 1, 1_000_000);
      try (PrivacyLedger l = ledger.open()) {
        var one = charge(l, 1);
        // the exact count: GDP and RDP charges are priced in closed form for any count
        int fit = l.fits(one, Integer.MAX_VALUE);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%s of %s fit (asked %d; filter %s)%n", fit == Integer.MAX_VALUE
            ? "at least " + fit : String.valueOf(fit), mechanism.text(), count,
            l.describe(one).filter().cliName());
        out.flush();
        return fit >= count ? 0 : DOES_NOT_FIT;
      }
    }
  }

  /** {@code tradeoff ledger charge}: records N releases made elsewhere, with their event. */
  @Command(name = "charge", mixinStandardHelpOptions = true,
      description = "Record N releases made outside Tradeoff (e.g. a DP-SGD run) with their"
          + " event; exit 3 and nothing recorded when they do not fit.")
  public static final class Charge extends Request implements Callable<Integer> {
    @Option(names = "--label", required = true, description = "what the charge is for")
    String label;

    @Override
    public Integer call() {
      Inputs.count("--count", count, 1, 1_000_000);
      PrintWriter out = spec.commandLine().getOut();
      try (PrivacyLedger l = ledger.open()) {
        var c = charge(l, count);
        // the arguments as given, from the top-level command on ("ledger charge --ledger ...")
        String commandLine = "tradeoff " + String.join(" ",
            spec.commandLine().getParseResult().originalArgs());
        try {
          LedgerEntry e = l.charge(label, c, commandLine);
          out.printf("charged #%d %s: %s%n", e.id(), label, LedgerAmounts.text(e.charged(), RoundingMode.UP));
          out.flush();
          return 0;
        } catch (dev.tradeoff.accounting.budget.BudgetExceededException e) {
          spec.commandLine().getErr().println("tradeoff: " + Shown.line(e.getMessage()));
          return DOES_NOT_FIT;
        }
      }
    }
  }

  /** {@code tradeoff ledger history [--json|--csv]}. */
  @Command(name = "history", mixinStandardHelpOptions = true,
      description = "Every entry: when, what, its filter, event and (epsilon, delta).")
  public static final class History implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Option(names = "--csv", description = "print CSV")
    boolean csv;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      try (PrivacyLedger l = ledger.open()) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PrivacyLedger.LedgerRecord r : l.history()) {
          Map<String, Object> row = new LinkedHashMap<>();
          LedgerEntry e = r.entry();
          row.put("id", e.id());
          row.put("reservedAt", e.reservedAt().toString());
          row.put("committedAt", e.committedAt().map(Object::toString).orElse(null));
          row.put("status", e.status().name());
          row.put("label", e.label());
          row.put("filter", r.description().filter() == null ? null
              : r.description().filter().cliName());
          row.put("charged", LedgerAmounts.json(e.charged()));
          row.put("gdpMu", r.description().gdpMu());
          row.put("event", r.description().event() == null ? null
              : String.valueOf(r.description().event()));
          row.put("commandLine", r.description().commandLine());
          row.put("hash", r.hash());
          rows.add(row);
        }
        if (json) {
          out.println(Json.write(Map.of("ledger", l.location().toString(), "entries", rows)));
        } else {
          out.println(csv ? "id,reservedAt,committedAt,status,label,filter,epsilon,delta,gdpMu,"
              + "event,commandLine,hash" : "");
          for (Map<String, Object> row : rows) {
            @SuppressWarnings("unchecked")
            Map<String, Object> a = (Map<String, Object>) row.get("charged");
            List<Object> cells = List.of(row.get("id"), row.get("reservedAt"),
                String.valueOf(row.get("committedAt")), row.get("status"), row.get("label"),
                String.valueOf(row.get("filter")), epsilonCell(a),
                a.containsKey("delta") ? String.valueOf(a.get("delta")) : "",
                String.valueOf(row.get("gdpMu")),
                String.valueOf(row.get("event")), String.valueOf(row.get("commandLine")),
                row.get("hash"));
            StringBuilder line = new StringBuilder();
            for (Object c : cells) {
              String t = String.valueOf(c);
              line.append(line.length() == 0 ? "" : csv ? "," : "  ")
                  .append(csv ? "\"" + t.replace("\"", "\"\"") + "\"" : t);
            }
            out.println(line);
          }
        }
      }
      out.flush();
      return 0;
    }
  }

  /** {@code tradeoff ledger plot --ledger PATH --out FILE.png}. */
  @Command(name = "plot", mixinStandardHelpOptions = true,
      description = "Spend over time against the budget, as a PNG: the sum of the charges' epsilon"
          + " (basic composition) and, where it exists, epsilon at the budget's delta of the GDP"
          + " charges so far.")
  public static final class Plot implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--out", defaultValue = "ledger.png", description = "PNG file")
    Path png;

    @Override
    public Integer call() throws java.io.IOException {
      try (PrivacyLedger l = ledger.open()) {
        List<Double> x = new ArrayList<>();
        List<Double> basic = new ArrayList<>();
        List<Double> gdp = new ArrayList<>();
        double sum = 0;
        double muSq = 0;
        int i = 0;
        double delta = l.budget() instanceof ApproxDp a ? a.delta() : 1e-5;
        for (PrivacyLedger.LedgerRecord r : l.history()) {
          if (r.entry().status() == dev.tradeoff.accounting.budget.EntryStatus.CANCELLED
              || r.description().approxDp() == null) {
            continue;
          }
          sum += r.description().approxDp().epsilon();
          if (r.description().gdpMu() != null) {
            muSq += r.description().gdpMu() * r.description().gdpMu();
          }
          x.add((double) ++i);
          basic.add(sum);
          gdp.add(muSq == 0 ? 0 : dev.tradeoff.accounting.conversion.GaussianDpConversion
              .epsilon(Math.sqrt(muSq), delta));
        }
        var chart = new org.knowm.xchart.XYChartBuilder().width(800).height(500)
            .title("privacy spent: " + (l instanceof dev.tradeoff.ledger.SqliteLedger f
                ? f.file().getFileName() : l.location())).xAxisTitle("entry")
            .yAxisTitle("epsilon").build();
        if (!x.isEmpty()) {
          chart.addSeries("sum of epsilons (basic)", x, basic);
          chart.addSeries("GDP charges: epsilon at the budget delta", x, gdp);
          double budgetEps = l.budget() instanceof ApproxDp a ? a.epsilon() : Double.NaN;
          chart.addSeries("budget epsilon", List.of(x.get(0), x.get(x.size() - 1)),
              List.of(budgetEps, budgetEps));
        } else {
          chart.addSeries("no entries", new double[] {0}, new double[] {0});
        }
        Path out = Inputs.outputFile("--out", png);
        org.knowm.xchart.BitmapEncoder.saveBitmap(chart, out.toString(),
            org.knowm.xchart.BitmapEncoder.BitmapFormat.PNG);
        spec.commandLine().getOut().printf("wrote %s%n", out);
        spec.commandLine().getOut().flush();
      }
      return 0;
    }
  }

  /**
   * {@code tradeoff ledger grant --ledger postgresql://... --dataset NAME --role ROLE}: the owner
   * lets a database role charge and read one dataset (nothing else; enforced by the database).
   */
  @Command(name = "grant", mixinStandardHelpOptions = true,
      description = "Let a PostgreSQL role charge and read one dataset's budget (owner only).")
  public static final class Grant implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Option(names = "--role", required = true, description = "the analyst's database role")
    String role;

    @Override
    public Integer call() {
      LedgerLocation where = ledger.toRead();
      if (where.server() == null) {
        throw new IllegalArgumentException("--ledger must be postgresql://HOST[:PORT]/DB for"
            + " grant: an SQLite file's access is its file permissions, but was " + where);
      }
      String dataset = ledger.dataset() == null ? LedgerLocation.DEFAULT_DATASET
          : ledger.dataset();
      PostgresLedger.grant(where.server(), dataset, role);
      spec.commandLine().getOut().printf("granted %s: charge and read dataset %s of %s%n", role,
          dataset, where);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** {@code tradeoff ledger verify}: checks the hash chain, header and schema. */
  @Command(name = "verify", mixinStandardHelpOptions = true,
      description = "Check the ledger's schema, recorded budget and hash chain; prints the head"
          + " hash to record elsewhere. A damaged or edited ledger is refused with one line.")
  public static final class Verify implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LedgerFile ledger;

    @Override
    public Integer call() {
      try (PrivacyLedger l = ledger.open()) {
        PrivacyLedger.Verification v = l.verify();
        spec.commandLine().getOut().printf("ok: %d entries, head %s%n", v.entries(),
            v.headHash());
        spec.commandLine().getOut().flush();
      }
      return 0;
    }
  }

  /** ε, or for an ex-post entry (Rényi at one order) "rdp@α:ε̃". */
  private static String epsilonCell(Map<String, Object> amount) {
    if (amount.get("epsilons") instanceof double[] e) {
      return "rdp@" + ((double[]) amount.get("orders"))[0] + ":" + e[0];
    }
    return String.valueOf(amount.get("epsilon"));
  }
}
