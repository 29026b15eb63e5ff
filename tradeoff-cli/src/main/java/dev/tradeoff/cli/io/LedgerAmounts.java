package dev.tradeoff.cli.io;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/** A ledger amount (pure, approximate or Rényi DP) as JSON fields and as table text. */
public final class LedgerAmounts {

  private LedgerAmounts() {}

  /** A ledger amount as JSON fields (exact doubles). */
  public static Map<String, Object> json(PrivacyGuarantee g) {
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
  public static String text(PrivacyGuarantee g, RoundingMode mode) {
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
