package dev.tradeoff.cli;

import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ledger}: inspect a persistent privacy-budget ledger ({@link SqliteLedger}).
 * {@code ledger show --ledger FILE [--json]} lists the budget, what is spent (open reservations at
 * their worst case, rounded up), what remains (rounded down) and every charge: label, status,
 * reserved and charged amounts, timestamps and the process that made it. It only reads the file.
 */
@Command(
    name = "ledger",
    mixinStandardHelpOptions = true,
    description = "Inspect a privacy-budget ledger.",
    subcommands = {LedgerCommand.Show.class})
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

    @Option(names = "--ledger", defaultValue = "tradeoff-ledger.db", description = "ledger file")
    Path ledger;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      try (SqliteLedger l = SqliteLedger.open(Inputs.ledgerToRead("--ledger", ledger))) {
        List<LedgerEntry> entries = l.entries();
        PrivacyGuarantee spent = l.spent();
        PrivacyGuarantee remaining = l.remaining();
        if (json) {
          Map<String, Object> doc = new LinkedHashMap<>();
          doc.put("ledger", l.file().toString());
          doc.put("kind", l.kind().name());
          doc.put("budget", amounts(l.budget()));
          doc.put("spent", amounts(spent));
          doc.put("remaining", amounts(remaining));
          List<Map<String, Object>> rows = new ArrayList<>();
          for (LedgerEntry e : entries) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", e.id());
            row.put("label", e.label());
            row.put("status", e.status().name());
            row.put("kind", e.kind().name());
            row.put("reserved", amounts(e.reserved()));
            row.put("charged", amounts(e.charged()));
            row.put("reservedAt", e.reservedAt().toString());
            row.put("committedAt", e.committedAt().map(Object::toString).orElse(null));
            row.put("processId", e.processId());
            rows.add(row);
          }
          doc.put("entries", rows);
          out.println(Json.write(doc));
        } else {
          out.printf("ledger     %s%n", l.file());
          out.printf("kind       %s%n", l.kind());
          out.printf("budget     %s%n", text(l.budget(), RoundingMode.DOWN));
          out.printf("spent      %s%n", text(spent, RoundingMode.UP));
          out.printf("remaining  %s%n", text(remaining, RoundingMode.DOWN));
          out.printf("entries    %d%n", entries.size());
          if (!entries.isEmpty()) {
            out.println();
            out.printf("%5s  %-9s  %-24s  %-24s  %-24s  %-24s  %s%n",
                "id", "status", "charged", "reserved", "reserved at", "committed at", "label");
            for (LedgerEntry e : entries) {
              out.printf("%5d  %-9s  %-24s  %-24s  %-24s  %-24s  %s%n", e.id(), e.status(),
                  text(e.charged(), RoundingMode.UP), text(e.reserved(), RoundingMode.UP),
                  e.reservedAt(), e.committedAt().map(Object::toString).orElse("-"), e.label());
            }
          }
        }
      }
      out.flush();
      return 0;
    }
  }

  /** A ledger amount as JSON fields (exact doubles). */
  static Map<String, Object> amounts(PrivacyGuarantee g) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (g instanceof PureDp p) {
      m.put("epsilon", p.epsilon());
    } else if (g instanceof ApproxDp a) {
      m.put("epsilon", a.epsilon());
      m.put("delta", a.delta());
    } else if (g instanceof RenyiDp r) {
      m.put("orders", r.orders());
      m.put("epsilons", r.epsilons());
    } else {
      throw new IllegalArgumentException("not a ledger amount: " + g);
    }
    return m;
  }

  /** A ledger amount for the table, as {@link Numbers} prints it, rounded in {@code mode}. */
  static String text(PrivacyGuarantee g, RoundingMode mode) {
    if (g instanceof PureDp p) {
      return "ε=" + round(p.epsilon(), mode);
    }
    if (g instanceof ApproxDp a) {
      return "ε=" + round(a.epsilon(), mode) + " δ=" + round(a.delta(), mode);
    }
    RenyiDp r = (RenyiDp) g;
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < r.size(); i++) {
      s.append(i == 0 ? "" : " ")
          .append("ε(").append(round(r.order(i), RoundingMode.HALF_EVEN)).append(")=")
          .append(round(r.epsilon(i), mode));
    }
    return s.toString();
  }

  private static String round(double x, RoundingMode mode) {
    return Numbers.format(x, mode == RoundingMode.UP ? RoundingMode.CEILING
        : mode == RoundingMode.DOWN ? RoundingMode.FLOOR : mode);
  }
}
