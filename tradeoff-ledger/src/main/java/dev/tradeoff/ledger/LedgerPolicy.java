package dev.tradeoff.ledger;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How an (ε, δ) ledger splits its budget between its filters, fixed when the ledger is created
 * and recorded (and hashed) in its header.
 *
 * <p>Filter k receives the sub-budget (s_k·ε, s_k·δ) (each rounded down), the shares s_k summing
 * to at most 1. Both ε and δ are split: each filter is an interactive mechanism that is (s_k·ε,
 * s_k·δ)-DP against a fully adaptive analyst, and the analyst interleaves requests to the filters,
 * which is concurrent composition; concurrent composition of interactive (ε_k, δ_k)-DP mechanisms is
 * (Σ ε_k, Σ δ_k)-DP (Vadhan and Zhang 2023; Lyu 2022; with adaptively chosen parameters Haney et al.
 * 2023). No result known to us lets filters of different kinds share one ε, so a mixed ledger pays
 * for the mix; a ledger that will only ever see one kind of charge should give that filter the whole
 * budget ({@code gdp}, {@code rdp} or {@code basic}).
 *
 * <p>A charge goes to the tightest filter the ledger has that can take it, decided from the charge's
 * description alone (never from data): Gaussian/GDP events to {@code gdp}, then any event with an
 * RDP curve to {@code rdp}, then anything by its (ε, δ) to {@code basic}.
 *
 * @see FilterKind
 */
public final class LedgerPolicy {

  /** The Rényi order grid of the RDP filter when none is given. */
  private static final double[] DEFAULT_ORDERS = {
    1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64
  };

  private final Map<FilterKind, BigDecimal> shares;
  private final double[] orders;
  private final double eventDelta;
  private final double exPostOrder;

  private LedgerPolicy(Map<FilterKind, BigDecimal> shares, double[] orders, double eventDelta,
      double exPostOrder) {
    this.shares = Collections.unmodifiableMap(new EnumMap<>(shares));
    this.orders = orders.clone();
    this.eventDelta = eventDelta;
    this.exPostOrder = exPostOrder;
  }

  /**
   * A policy from its text, {@code gdp:0.5,rdp:0.4,basic:0.1} (a bare name means share 1). The
   * filters are {@code gdp}, {@code rdp}, {@code basic}, {@code advanced} and {@code expost@α}, the
   * ex-post filter's Rényi order α written after {@code @} ({@code expost@8:0.2}): it is fixed at
   * creation, as [ExPost25, Theorem 16] requires.
   *
   * @param orders the RDP filter's order grid (null for the default)
   * @param eventDelta the δ at which an event charged to the basic filter is priced
   */
  public static LedgerPolicy parse(String text, double[] orders, double eventDelta) {
    Require.nonNull("policy", text);
    Map<FilterKind, BigDecimal> shares = new EnumMap<>(FilterKind.class);
    double exPostOrder = Double.NaN;
    for (String part : text.split(",", -1)) {
      String[] kv = part.trim().split(":", -1);
      String[] nameAt = kv[0].trim().split("@", -1);
      FilterKind kind = FilterKind.parse(nameAt[0].trim());
      if ((kind == FilterKind.EXPOST) != (nameAt.length == 2)) {
        throw new IllegalArgumentException(kind == FilterKind.EXPOST
            ? "filter expost needs its Renyi order, as in expost@8:0.2, but was \"" + part + "\""
            : "only the expost filter takes an order (@), but was \"" + part + "\"");
      }
      if (kind == FilterKind.EXPOST) {
        try {
          exPostOrder = Double.parseDouble(nameAt[1].trim());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("expost order must be a number > 1, but was \""
              + part + "\"", e);
        }
        Require.renyiOrder("expost order", exPostOrder);
      }
      BigDecimal share;
      try {
        share = kv.length == 1 ? BigDecimal.ONE : new BigDecimal(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("filter share must be a decimal number, but was \""
            + part + "\"", e);
      }
      if (kv.length > 2 || share.signum() <= 0 || share.compareTo(BigDecimal.ONE) > 0) {
        throw new IllegalArgumentException(
            "filter share must be in (0, 1], but was \"" + part + "\"");
      }
      if (shares.put(kind, share) != null) {
        throw new IllegalArgumentException("filter " + kind.cliName() + " is named twice in \""
            + text + "\"");
      }
    }
    BigDecimal total = shares.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    if (total.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException("filter shares must add up to at most 1, but \"" + text
          + "\" adds up to " + total.toPlainString());
    }
    double[] grid = orders == null ? DEFAULT_ORDERS : orders;
    for (int i = 0; i < grid.length; i++) {
      Require.renyiOrder("order", grid[i]);
      Require.that(i == 0 || grid[i] > grid[i - 1], "orders", "must increase strictly",
          Arrays.toString(grid));
    }
    Require.that(grid.length > 0, "orders", "must not be empty", grid.length);
    Require.openUnit("eventDelta", eventDelta);
    return new LedgerPolicy(shares, grid, eventDelta, exPostOrder);
  }

  /** Everything to one filter, default order grid, events priced at δ/100. */
  public static LedgerPolicy only(FilterKind filter, ApproxDp budget) {
    return parse(filter.cliName(), null, defaultEventDelta(budget));
  }

  /**
   * The policy of {@code tradeoff ledger create} when none is given: {@value #DEFAULT_TEXT}. Most
   * releases Tradeoff makes have RDP curves (Gaussian, subsampled Gaussian, Laplace, randomized
   * response, pure ε); the basic share takes opaque (ε, δ) charges such as a label run's.
   */
  public static LedgerPolicy defaults(ApproxDp budget) {
    return parse(DEFAULT_TEXT, null, defaultEventDelta(budget));
  }

  /** The text of {@link #defaults}. */
  public static final String DEFAULT_TEXT = "rdp:0.8,basic:0.2";

  /** budget δ / 100: the δ at which an event that only the basic filter takes is priced. */
  public static double defaultEventDelta(ApproxDp budget) {
    return budget.delta() > 0 ? budget.delta() / 100 : 1e-12;
  }

  /** The filters and their shares, in {@link FilterKind} order. */
  public Map<FilterKind, BigDecimal> shares() {
    return shares;
  }

  public boolean has(FilterKind kind) {
    return shares.containsKey(kind);
  }

  /** The RDP filter's order grid (a copy). */
  public double[] orders() {
    return orders.clone();
  }

  /** The ex-post filter's Rényi order α, NaN if the policy has no ex-post filter. */
  public double exPostOrder() {
    return exPostOrder;
  }

  /** The δ at which an event priced by (ε, δ) alone is charged. */
  public double eventDelta() {
    return eventDelta;
  }

  /** The text form, {@code rdp:0.8,basic:0.2}. */
  public String text() {
    return shares.entrySet().stream()
        .map(e -> e.getKey().cliName()
            + (e.getKey() == FilterKind.EXPOST ? "@" + exPostOrder : "") + ":"
            + e.getValue().toPlainString())
        .collect(Collectors.joining(","));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LedgerPolicy p && shares.equals(p.shares) && Arrays.equals(orders, p.orders)
        && eventDelta == p.eventDelta && Double.compare(exPostOrder, p.exPostOrder) == 0;
  }

  @Override
  public int hashCode() {
    return shares.hashCode() * 31 + Arrays.hashCode(orders);
  }

  @Override
  public String toString() {
    return text() + " (RDP orders " + Arrays.toString(orders) + ", events at delta " + eventDelta
        + ")";
  }
}
