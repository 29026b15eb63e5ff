package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link BudgetStore} held in memory, for filters inside one process (the persistent store is
 * {@code SqliteLedger} (module tradeoff-ledger)). Every operation holds the store's lock, so
 * concurrent threads never overspend. Amounts are vectors: (ε) for pure DP, (ε, δ) for approximate
 * DP, and ε at each order of the budget for Rényi DP (a charge read with {@link
 * RenyiDp#epsilonAt(double)}, a valid upper bound). Sums are exact in {@link BigDecimal}, reported
 * rounded up (spent) or down (remaining).
 */
public final class InMemoryBudgetStore implements BudgetStore {

  private final PrivacyGuarantee budget;
  private final GuaranteeKind kind;
  private final double[] orders;
  private final double[] limits;
  private final Object lock = new Object();
  private final Map<Long, LedgerEntry> entries = new LinkedHashMap<>();
  private long nextId = 1;

  /** An empty store for {@code budget} ({@link PureDp}, {@link ApproxDp} or {@link RenyiDp}). */
  public InMemoryBudgetStore(PrivacyGuarantee budget) {
    this.budget = Require.nonNull("budget", budget);
    this.kind = GuaranteeKind.of(budget);
    switch (kind) {
      case PURE_DP -> {
        orders = new double[0];
        limits = new double[] {((PureDp) budget).epsilon()};
      }
      case APPROX_DP -> {
        orders = new double[0];
        limits = new double[] {((ApproxDp) budget).epsilon(), ((ApproxDp) budget).delta()};
      }
      default -> {
        RenyiDp r = (RenyiDp) budget;
        orders = r.orders();
        limits = r.epsilons();
      }
    }
  }

  private double[] read(String name, PrivacyGuarantee g) {
    Require.nonNull(name, g);
    switch (kind) {
      case PURE_DP -> {
        Require.that(g instanceof PureDp, name, "must be PureDp for a pure-DP budget", g);
        return new double[] {((PureDp) g).epsilon()};
      }
      case APPROX_DP -> {
        if (g instanceof PureDp p) {
          return new double[] {p.epsilon(), 0};
        }
        Require.that(g instanceof ApproxDp, name, "must be PureDp or ApproxDp for an approximate-DP budget", g);
        return new double[] {((ApproxDp) g).epsilon(), ((ApproxDp) g).delta()};
      }
      default -> {
        Require.that(g instanceof RenyiDp, name, "must be RenyiDp for a Renyi-DP budget", g);
        double[] v = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
          v[i] = ((RenyiDp) g).epsilonAt(orders[i]);
        }
        return v;
      }
    }
  }

  private PrivacyGuarantee guarantee(double[] v) {
    return switch (kind) {
      case PURE_DP -> new PureDp(v[0]);
      case APPROX_DP -> new ApproxDp(v[0], Math.min(v[1], Math.nextDown(1.0)));
      default -> RenyiDp.of(orders, v);
    };
  }

  private BigDecimal[] total() {
    BigDecimal[] t = new BigDecimal[limits.length];
    java.util.Arrays.fill(t, BigDecimal.ZERO);
    for (LedgerEntry e : entries.values()) {
      double[] c = read("charge", e.charged());
      for (int i = 0; i < t.length; i++) {
        t[i] = t[i].add(new BigDecimal(c[i]));
      }
    }
    return t;
  }

  private static double up(BigDecimal x) {
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) < 0 ? Math.nextUp(d) : d;
  }

  private static double down(BigDecimal x) {
    if (x.signum() <= 0) {
      return 0;
    }
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) > 0 ? Math.nextDown(d) : d;
  }

  private boolean fits(BigDecimal[] total, double[] request) {
    for (int i = 0; i < limits.length; i++) {
      if (Double.isInfinite(request[i])
          || total[i].add(new BigDecimal(request[i])).compareTo(new BigDecimal(limits[i])) > 0) {
        return false;
      }
    }
    return true;
  }

  private PrivacyGuarantee remainingOf(BigDecimal[] total) {
    double[] r = new double[limits.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = down(new BigDecimal(limits[i]).subtract(total[i]));
    }
    return guarantee(r);
  }

  @Override
  public PrivacyGuarantee budget() {
    return budget;
  }

  @Override
  public Reservation reserve(String label, PrivacyGuarantee worstCase) {
    Require.that(label != null && !label.isBlank(), "label", "must be non-blank", label);
    double[] request = read("worstCase", worstCase);
    synchronized (lock) {
      BigDecimal[] total = total();
      if (!fits(total, request)) {
        throw new BudgetExceededException(label, guarantee(request), remainingOf(total));
      }
      long id = nextId++;
      Instant now = Instant.now();
      PrivacyGuarantee g = guarantee(request);
      entries.put(id, new LedgerEntry(id, label, kind, EntryStatus.RESERVED, g, g, now, null, pid()));
      return new Reservation(id, label, g, now);
    }
  }

  @Override
  public LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised) {
    Require.nonNull("reservation", reservation);
    double[] cost = read("realised", realised);
    synchronized (lock) {
      LedgerEntry open = open(reservation);
      double[] reserved = read("reserved", open.reserved());
      for (int i = 0; i < cost.length; i++) {
        if (cost[i] > reserved[i]) {
          throw new IllegalArgumentException(
              "realised cost " + realised + " exceeds the reservation " + open.reserved()
                  + " of \"" + open.label() + "\"; nothing was changed");
        }
      }
      LedgerEntry done = new LedgerEntry(open.id(), open.label(), kind, EntryStatus.COMMITTED,
          open.reserved(), guarantee(cost), open.reservedAt(), Instant.now(), open.processId());
      entries.put(open.id(), done);
      return done;
    }
  }

  @Override
  public void cancel(Reservation reservation) {
    Require.nonNull("reservation", reservation);
    synchronized (lock) {
      entries.remove(open(reservation).id());
    }
  }

  @Override
  public LedgerEntry charge(String label, PrivacyGuarantee cost) {
    synchronized (lock) {
      return commit(reserve(label, cost), cost);
    }
  }

  @Override
  public PrivacyGuarantee spent() {
    synchronized (lock) {
      BigDecimal[] t = total();
      double[] s = new double[t.length];
      for (int i = 0; i < s.length; i++) {
        s[i] = up(t[i]);
      }
      return guarantee(s);
    }
  }

  @Override
  public PrivacyGuarantee remaining() {
    synchronized (lock) {
      return remainingOf(total());
    }
  }

  @Override
  public List<LedgerEntry> entries() {
    synchronized (lock) {
      return List.copyOf(new ArrayList<>(entries.values()));
    }
  }

  @Override
  public void close() {}

  private LedgerEntry open(Reservation reservation) {
    LedgerEntry e = entries.get(reservation.id());
    if (e == null || e.status() != EntryStatus.RESERVED) {
      throw new IllegalStateException(
          "reservation #" + reservation.id() + " (" + reservation.label() + ") is unknown or already settled");
    }
    return e;
  }

  private static long pid() {
    return ProcessHandle.current().pid();
  }
}
