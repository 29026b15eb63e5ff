package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * A budget's coordinates: (ε), (ε, δ) or ε at each Rényi order of the budget. Charges are summed in
 * exact decimal arithmetic (every double is a finite decimal), so admission is decided without
 * rounding; reported totals are rounded in the safe direction (spent up, remaining down).
 */
final class Coordinates {

  private final GuaranteeKind kind;
  private final double[] orders;
  private final double[] limits;

  private Coordinates(GuaranteeKind kind, double[] orders, double[] limits) {
    this.kind = kind;
    this.orders = orders;
    this.limits = limits;
  }

  /** The coordinates of a budget guarantee. */
  static Coordinates ofBudget(PrivacyGuarantee budget) {
    GuaranteeKind kind = GuaranteeKind.of(budget);
    return switch (kind) {
      case PURE_DP -> new Coordinates(kind, new double[0], new double[] {((PureDp) budget).epsilon()});
      case APPROX_DP -> {
        ApproxDp a = (ApproxDp) budget;
        yield new Coordinates(kind, new double[0], new double[] {a.epsilon(), a.delta()});
      }
      case RENYI_DP -> {
        RenyiDp r = (RenyiDp) budget;
        yield new Coordinates(kind, r.orders(), r.epsilons());
      }
    };
  }

  /** Rebuilds a budget from its stored kind, orders and limits. */
  static Coordinates of(GuaranteeKind kind, double[] orders, double[] limits) {
    return ofBudget(guarantee(kind, orders, limits));
  }

  GuaranteeKind kind() {
    return kind;
  }

  double[] orders() {
    return orders.clone();
  }

  PrivacyGuarantee budget() {
    return guarantee(kind, orders, limits);
  }

  /**
   * Reads a charge in this budget's coordinates.
   *
   * @throws IllegalArgumentException for a charge of another flavour
   */
  double[] read(String name, PrivacyGuarantee cost) {
    if (cost == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    switch (kind) {
      case PURE_DP -> {
        if (cost instanceof PureDp p) {
          return new double[] {p.epsilon()};
        }
        if (cost instanceof ApproxDp a && a.isPure()) {
          return new double[] {a.epsilon()};
        }
      }
      case APPROX_DP -> {
        if (cost instanceof PureDp p) {
          return new double[] {p.epsilon(), 0};
        }
        if (cost instanceof ApproxDp a) {
          return new double[] {a.epsilon(), a.delta()};
        }
      }
      case RENYI_DP -> {
        if (cost instanceof RenyiDp r) {
          double[] e = new double[orders.length];
          for (int i = 0; i < e.length; i++) {
            e[i] = r.epsilonAt(orders[i]);
          }
          return e;
        }
      }
    }
    throw new IllegalArgumentException(
        name
            + " must be a "
            + kind
            + " guarantee like the ledger's budget, but was "
            + cost.getClass().getSimpleName());
  }

  /** The guarantee with the given coordinates. */
  PrivacyGuarantee guarantee(double[] values) {
    return guarantee(kind, orders, values);
  }

  /** Whether {@code spent + request} fits the budget in every coordinate with a finite limit. */
  boolean fits(List<double[]> charges, double[] request) {
    Total spent = total(charges);
    for (int i = 0; i < limits.length; i++) {
      if (limits[i] == Double.POSITIVE_INFINITY) {
        continue;
      }
      if (spent.infinite[i] || request[i] == Double.POSITIVE_INFINITY) {
        return false;
      }
      if (spent.sums[i].add(new BigDecimal(request[i])).compareTo(new BigDecimal(limits[i])) > 0) {
        return false;
      }
    }
    return true;
  }

  /** Σ charges, rounded up to doubles. */
  double[] spent(List<double[]> charges) {
    Total t = total(charges);
    double[] s = new double[limits.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = t.infinite[i] ? Double.POSITIVE_INFINITY : roundUp(t.sums[i]);
    }
    return s;
  }

  /** max(0, budget − Σ charges), rounded down to doubles. */
  double[] remaining(List<double[]> charges) {
    Total t = total(charges);
    double[] r = new double[limits.length];
    for (int i = 0; i < r.length; i++) {
      if (limits[i] == Double.POSITIVE_INFINITY) {
        r[i] = Double.POSITIVE_INFINITY;
      } else if (t.infinite[i]) {
        r[i] = 0;
      } else {
        BigDecimal left = new BigDecimal(limits[i]).subtract(t.sums[i]);
        r[i] = left.signum() <= 0 ? 0 : roundDown(left);
      }
    }
    return r;
  }

  /** Whether {@code a ≤ b} in every coordinate. */
  static boolean dominatedBy(double[] a, double[] b) {
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] <= b[i])) {
        return false;
      }
    }
    return true;
  }

  /** Text form of coordinates: comma-separated doubles, exact on round trip. */
  static String encode(double[] values) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        s.append(',');
      }
      s.append(Double.toString(values[i]));
    }
    return s.toString();
  }

  /**
   * Parses {@link #encode} output.
   *
   * @throws IllegalArgumentException if the text is not {@code size} values ≥ 0 (or +∞)
   */
  static double[] decode(String text, int size) {
    if (text == null) {
      throw new IllegalArgumentException("missing amounts");
    }
    String[] parts = size == 0 ? new String[0] : text.split(",", -1);
    if (parts.length != size) {
      throw new IllegalArgumentException(
          "expected " + size + " amounts but found \"" + text + "\"");
    }
    double[] v = new double[size];
    for (int i = 0; i < size; i++) {
      try {
        v[i] = Double.parseDouble(parts[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("unreadable amount \"" + parts[i] + "\"", e);
      }
      if (!(v[i] >= 0)) {
        throw new IllegalArgumentException("negative or NaN amount " + parts[i]);
      }
    }
    return v;
  }

  int size() {
    return limits.length;
  }

  private Total total(List<double[]> charges) {
    Total t = new Total(limits.length);
    for (double[] c : charges) {
      for (int i = 0; i < c.length; i++) {
        if (c[i] == Double.POSITIVE_INFINITY) {
          t.infinite[i] = true;
        } else {
          t.sums[i] = t.sums[i].add(new BigDecimal(c[i]));
        }
      }
    }
    return t;
  }

  private static double roundUp(BigDecimal x) {
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) < 0 ? Math.nextUp(d) : d;
  }

  private static double roundDown(BigDecimal x) {
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) > 0 ? Math.nextDown(d) : d;
  }

  private static PrivacyGuarantee guarantee(GuaranteeKind kind, double[] orders, double[] values) {
    return switch (kind) {
      case PURE_DP -> new PureDp(values[0]);
      case APPROX_DP -> new ApproxDp(values[0], values[1]);
      case RENYI_DP -> RenyiDp.of(orders, values);
    };
  }

  private static final class Total {
    final BigDecimal[] sums;
    final boolean[] infinite;

    Total(int n) {
      sums = new BigDecimal[n];
      Arrays.fill(sums, BigDecimal.ZERO);
      infinite = new boolean[n];
    }
  }
}
