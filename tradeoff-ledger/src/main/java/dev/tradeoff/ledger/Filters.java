package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The filters of an (ε, δ) ledger and their admission rule (see {@link FilterKind} and
 * docs/ledger.md for the theorems). Sums are exact decimal sums of the recorded doubles; every
 * per-charge quantity is rounded up when it is computed, every limit rounded down.
 */
final class Filters {

  private static final Neighbouring NEIGHBOURING = Neighbouring.ADD_OR_REMOVE_ONE;

  private final ApproxDp budget;
  private final LedgerPolicy policy;
  private final Map<FilterKind, ApproxDp> sub = new EnumMap<>(FilterKind.class);
  private final double mu;
  private final BigDecimal muSquaredLimit;
  private final double[] orders;
  private final double[] limits;
  private final double exPostLimit;
  /** The advanced filter's δ′ (for the concentration) and δ″ (for Σ δ_i), each half its δ. */
  private final double advancedDelta;
  /** The advanced filter's bound V* on Σ ε_i² (0 without an advanced share). */
  private final BigDecimal advancedLimit;

  Filters(ApproxDp budget, LedgerPolicy policy) {
    this.budget = budget;
    this.policy = policy;
    for (Map.Entry<FilterKind, BigDecimal> e : policy.shares().entrySet()) {
      sub.put(e.getKey(), new ApproxDp(
          times(budget.epsilon(), e.getValue()), times(budget.delta(), e.getValue())));
    }
    ApproxDp g = sub.get(FilterKind.GDP);
    mu = g == null || g.delta() <= 0 ? 0 : GaussianDpConversion.mu(g.epsilon(), g.delta());
    muSquaredLimit = new BigDecimal(mu).multiply(new BigDecimal(mu));
    orders = policy.orders();
    limits = new double[orders.length];
    ApproxDp r = sub.get(FilterKind.RDP);
    for (int i = 0; i < orders.length; i++) {
      limits[i] = r == null || r.delta() <= 0 ? 0 : rdpLimit(orders[i], r.epsilon(),
          r.delta() / orders.length);
    }
    ApproxDp x = sub.get(FilterKind.EXPOST);
    exPostLimit = x == null || x.delta() <= 0 ? 0
        : rdpLimit(policy.exPostOrder(), x.epsilon(), x.delta());
    ApproxDp a = sub.get(FilterKind.ADVANCED);
    advancedDelta = a == null ? 0 : a.delta() / 2;
    advancedLimit = new BigDecimal(advancedDelta <= 0 ? 0
        : advancedLimit(a.epsilon(), advancedDelta));
  }

  /**
   * V*: the largest V with √(2 log(1/δ′) V) + V/2 ≤ ε, the advanced-composition filter's bound on
   * Σ ε_i² (Whitehouse, Ramdas, Rogers and Wu 2023, Theorem 2). From the root of the quadratic in
   * √V, 2ε/(√(2L + 2ε) + √(2L)) with L = log(1/δ′) (no cancellation), then stepped down until the
   * condition holds with every operation rounded up.
   */
  static double advancedLimit(double epsilon, double deltaPrime) {
    double l = Math.nextUp(-Math.log(deltaPrime));
    double root = 2 * epsilon / (Math.sqrt(2 * l + 2 * epsilon) + Math.sqrt(2 * l));
    double v = root * root;
    while (v > 0 && advancedEpsilonUp(v, l) > epsilon) {
      v = Math.nextDown(v);
    }
    return Math.max(0, v);
  }

  /** √(2 L V) + V/2, rounded up. */
  private static double advancedEpsilonUp(double v, double l) {
    return Math.nextUp(Math.nextUp(Math.sqrt(Math.nextUp(2 * l * v))) + v / 2);
  }

  /**
   * B(α): the largest τ with improvedDelta(α, τ, ε) ≤ δ' (Canonne, Kamath and Steinke 2020,
   * Proposition 12), from the closed form, then stepped down until the check passes as evaluated.
   */
  static double rdpLimit(double alpha, double epsilon, double deltaShare) {
    double tau = epsilon + (Math.log(deltaShare) - alpha * Math.log1p(-1 / alpha)
        + Math.log(alpha - 1)) / (alpha - 1);
    if (!(tau > 0)) {
      return 0;
    }
    while (tau > 0 && RdpConversion.improvedDelta(alpha, tau, epsilon) > deltaShare) {
      tau = Math.nextDown(tau);
    }
    return Math.max(0, tau);
  }

  private static double times(double x, BigDecimal share) {
    BigDecimal exact = new BigDecimal(x).multiply(share);
    double d = exact.doubleValue();
    return new BigDecimal(d).compareTo(exact) > 0 ? Math.nextDown(d) : d;
  }

  ApproxDp budget() {
    return budget;
  }

  LedgerPolicy policy() {
    return policy;
  }

  ApproxDp subBudget(FilterKind k) {
    return sub.get(k);
  }

  double mu() {
    return mu;
  }

  double[] orders() {
    return orders.clone();
  }

  double[] limits() {
    return limits.clone();
  }

  /** The ex-post filter's bound B on Σ ε̃_j(o_j) at its order (0 without an ex-post share). */
  double exPostLimit() {
    return exPostLimit;
  }

  /**
   * Describes a charge and routes it to the tightest filter of the policy that takes it, from the
   * description alone.
   *
   * @throws IllegalArgumentException if no filter of the policy takes it
   */
  EntryDescription describe(Charge charge, String commandLine) {
    DpEvent event = eventOf(charge);
    Pricing p = event == null ? new Pricing(null, null) : price(event);
    Double gdpMu = p.gdpMu();
    RenyiDp rdp = p.rdp();
    FilterKind filter;
    if (gdpMu != null && policy.has(FilterKind.GDP)) {
      filter = FilterKind.GDP;
    } else if (rdp != null && policy.has(FilterKind.RDP)) {
      filter = FilterKind.RDP;
    } else if (policy.has(FilterKind.ADVANCED)) {
      filter = FilterKind.ADVANCED;
    } else if (policy.has(FilterKind.BASIC)) {
      filter = FilterKind.BASIC;
    } else {
      throw new IllegalArgumentException("this ledger's filters (" + policy.text() + ") cannot take "
          + (event == null ? "an opaque (epsilon, delta) charge " + charge.approxDp()
              : "the event " + event) + "; a ledger needs a basic or advanced share for such charges");
    }
    return new EntryDescription(filter, charge.event() == null ? null : event, charge.approxDp(),
        gdpMu, rdp, commandLine);
  }

  /**
   * The event a charge is described by: its own if it can be recorded, a pure (ε, 0) opaque
   * charge's ε-DP guarantee, else null.
   */
  private static DpEvent eventOf(Charge charge) {
    DpEvent event = charge.event();
    if (event == null && charge.approxDp().delta() == 0) {
      event = new GuaranteeEvent(new PureDp(charge.approxDp().epsilon()));
    }
    return event != null && EventJson.representable(event) ? event : null;
  }

  /** An event's GDP μ (rounded up) and RDP curve on the grid, each null where unsupported. */
  private record Pricing(Double gdpMu, RenyiDp rdp) {}

  private Pricing price(DpEvent event) {
    Double gdpMu = null;
    RenyiDp rdp = null;
    GdpAccountant gdp = new GdpAccountant();
    if (gdp.whyUnsupported(event, NEIGHBOURING).isEmpty()) {
      gdpMu = Math.nextUp(gdp.gdp(event, NEIGHBOURING).mu());
    }
    RdpAccountant accountant = new RdpAccountant(orders);
    if (accountant.whyUnsupported(event, NEIGHBOURING).isEmpty()) {
      rdp = accountant.rdp(event, NEIGHBOURING);
    }
    return new Pricing(gdpMu, rdp);
  }

  /**
   * Whether {@code n} copies of {@code one}, charged now as one entry of their composition (what
   * {@link SqliteLedger#charge} records for {@link #repeated}), would be admitted. A charge the GDP
   * or RDP filter takes is priced by those accountants' closed forms for the n-fold
   * self-composition (μ·√n; n times the curve), which do not need the composition's (ε, δ), so
   * this is cheap for any n; a charge for the basic or advanced filter is priced as {@link
   * #repeated} prices it.
   */
  boolean admitsRepeated(State state, Charge one, int n) {
    EntryDescription d = describe(one, null);
    if (one.event() != null && (d.filter() == FilterKind.GDP || d.filter() == FilterKind.RDP)) {
      Pricing p = price(n == 1 ? one.event() : new SelfComposedEvent(one.event(), n));
      return d.filter() == FilterKind.GDP ? state.admitsGdp(p.gdpMu()) : state.admitsRdp(p.rdp());
    }
    return state.admits(state.route(describe(repeated(one, n), null)));
  }

  /** {@code times} copies of a charge's event, as one charge priced like {@code charge}. */
  Charge repeated(Charge charge, int times) {
    if (times == 1) {
      return charge;
    }
    if (charge.event() == null) {
      ApproxDp a = charge.approxDp();
      return Charge.opaque(new ApproxDp(up(a.epsilon() * times), Math.min(1, up(a.delta() * times))));
    }
    SelfComposedEvent e = new SelfComposedEvent(charge.event(), times);
    return Charge.of(e, policy.eventDelta());
  }

  private static double up(double x) {
    return Double.isInfinite(x) ? x : Math.nextUp(x);
  }

  /** A charge as the filters count it: its filter, description and (for basic) its (ε, δ). */
  record Counted(EntryDescription description, double epsilon, double delta) {}

  /** The filters' running sums. */
  final class State {
    BigDecimal muSquared = BigDecimal.ZERO;
    final BigDecimal[] rdp = new BigDecimal[orders.length];
    final boolean[] rdpInfinite = new boolean[orders.length];
    BigDecimal epsilon = BigDecimal.ZERO;
    BigDecimal delta = BigDecimal.ZERO;
    boolean epsilonInfinite;
    BigDecimal exPost = BigDecimal.ZERO;
    BigDecimal advancedSquares = BigDecimal.ZERO;
    BigDecimal advancedDeltas = BigDecimal.ZERO;
    boolean advancedInfinite;

    State() {
      Arrays.fill(rdp, BigDecimal.ZERO);
    }

    void add(Counted c) {
      EntryDescription d = c.description();
      switch (d.filter()) {
        case GDP -> muSquared = muSquared.add(square(d.gdpMu()));
        case RDP -> {
          for (int i = 0; i < orders.length; i++) {
            double v = d.rdp().epsilonAt(orders[i]);
            if (Double.isInfinite(v)) {
              rdpInfinite[i] = true;
            } else {
              rdp[i] = rdp[i].add(new BigDecimal(v));
            }
          }
        }
        case BASIC -> {
          if (Double.isInfinite(c.epsilon())) {
            epsilonInfinite = true;
          } else {
            epsilon = epsilon.add(new BigDecimal(c.epsilon()));
          }
          delta = delta.add(new BigDecimal(c.delta()));
        }
        case ADVANCED -> {
          if (Double.isInfinite(c.epsilon())) {
            advancedInfinite = true;
          } else {
            advancedSquares = advancedSquares.add(square(c.epsilon()));
          }
          advancedDeltas = advancedDeltas.add(new BigDecimal(c.delta()));
        }
        case EXPOST -> exPost = exPost.add(new BigDecimal(c.epsilon()));
      }
    }

    /**
     * The filter that takes {@code d} now: an opaque charge described for {@code advanced} goes to
     * {@code basic} when the ledger has both and only basic admits it. The choice depends only on
     * the recorded charges and the request, both known to the analyst, so it is the analyst's
     * interleaving of two filters (concurrent composition, {@link LedgerPolicy}).
     */
    EntryDescription route(EntryDescription d) {
      if (d.filter() == FilterKind.ADVANCED && policy.has(FilterKind.BASIC) && !admits(d)) {
        return new EntryDescription(FilterKind.BASIC, d.event(), d.approxDp(), d.gdpMu(), d.rdp(),
            d.commandLine());
      }
      return d;
    }

    /** Whether {@code d} (counted at its (ε, δ) for basic) is admitted next. */
    boolean admits(EntryDescription d) {
      return switch (d.filter()) {
        case GDP -> admitsGdp(d.gdpMu());
        case RDP -> admitsRdp(d.rdp());
        case BASIC -> {
          ApproxDp b = sub.get(FilterKind.BASIC);
          yield !epsilonInfinite && Double.isFinite(d.approxDp().epsilon())
              && epsilon.add(new BigDecimal(d.approxDp().epsilon()))
                  .compareTo(new BigDecimal(b.epsilon())) <= 0
              && delta.add(new BigDecimal(d.approxDp().delta()))
                  .compareTo(new BigDecimal(b.delta())) <= 0;
        }
        case ADVANCED -> !advancedInfinite && Double.isFinite(d.approxDp().epsilon())
            && advancedSquares.add(square(d.approxDp().epsilon())).compareTo(advancedLimit) <= 0
            && advancedDeltas.add(new BigDecimal(d.approxDp().delta()))
                .compareTo(new BigDecimal(advancedDelta)) <= 0;
        case EXPOST -> d.rdp().orders().length == 1 && d.rdp().order(0) == policy.exPostOrder()
            && exPost.add(new BigDecimal(d.rdp().epsilon(0)))
                .compareTo(new BigDecimal(exPostLimit)) <= 0;
      };
    }

    /** Whether a charge of μ-GDP fits the GDP filter. */
    boolean admitsGdp(double gdpMu) {
      return muSquared.add(square(gdpMu)).compareTo(muSquaredLimit) <= 0;
    }

    /** Whether a charge with this RDP curve fits the RDP filter at some order. */
    boolean admitsRdp(RenyiDp curve) {
      return !aliveOrders(curve).isEmpty();
    }

    /** The orders at which the sums plus {@code extra} (null: nothing) stay within B(α). */
    List<Double> aliveOrders(RenyiDp extra) {
      List<Double> alive = new java.util.ArrayList<>();
      for (int i = 0; i < orders.length; i++) {
        double v = extra == null ? 0 : extra.epsilonAt(orders[i]);
        if (rdpInfinite[i] || Double.isInfinite(v)) {
          continue;
        }
        if (rdp[i].add(new BigDecimal(v)).compareTo(new BigDecimal(limits[i])) <= 0) {
          alive.add(orders[i]);
        }
      }
      return alive;
    }

    /** What each filter has left, for reports (numbers rounded down). */
    Map<String, Object> remaining() {
      Map<String, Object> out = new LinkedHashMap<>();
      for (FilterKind k : sub.keySet()) {
        Map<String, Object> m = new LinkedHashMap<>();
        ApproxDp s = sub.get(k);
        m.put("share", policy.shares().get(k).toPlainString());
        m.put("epsilon", s.epsilon());
        m.put("delta", s.delta());
        switch (k) {
          case GDP -> {
            BigDecimal left = muSquaredLimit.subtract(muSquared);
            double muLeft = left.signum() <= 0 ? 0
                : Math.nextDown(left.sqrt(MathContext.DECIMAL64).doubleValue());
            m.put("mu", mu);
            m.put("muSpent", Math.nextUp(muSquared.sqrt(MathContext.DECIMAL64).doubleValue()));
            m.put("muRemaining", Math.max(0, muLeft));
            m.put("epsilonRemainingAtDelta", muLeft <= 0 ? 0.0
                : largestEpsilonBelow(s.epsilon(), GaussianDpConversion.epsilon(muLeft, s.delta())));
          }
          case RDP -> {
            double[] left = new double[orders.length];
            double best = 0;
            for (int i = 0; i < orders.length; i++) {
              BigDecimal l = new BigDecimal(limits[i]).subtract(rdp[i]);
              left[i] = rdpInfinite[i] || l.signum() <= 0 ? 0 : Math.nextDown(l.doubleValue());
              if (left[i] > 0) {
                // the largest ε that a pure ε-DP release could still spend at this order is not
                // asked; report the RDP room and, as one number, the best order's room.
                best = Math.max(best, left[i]);
              }
            }
            m.put("orders", orders.clone());
            m.put("limits", limits.clone());
            m.put("remainingByOrder", left);
            m.put("ordersAlive", aliveOrders(null));
          }
          case BASIC -> {
            ApproxDp left = basicRemaining();
            m.put("epsilonRemaining", left.epsilon());
            m.put("deltaRemaining", left.delta());
          }
          case ADVANCED -> {
            m.put("deltaPrime", advancedDelta);
            m.put("sumOfSquaresLimit", advancedLimit.doubleValue());
            m.put("sumOfSquaresSpent", Math.nextUp(advancedSquares.doubleValue()));
            m.put("sumOfSquaresRemaining", advancedInfinite ? 0.0
                : down(advancedLimit.subtract(advancedSquares)));
            m.put("deltaRemaining", down(new BigDecimal(advancedDelta).subtract(advancedDeltas)));
          }
          case EXPOST -> {
            m.put("order", policy.exPostOrder());
            m.put("limit", exPostLimit);
            m.put("spent", Math.nextUp(exPost.doubleValue()));
            m.put("remaining", exPostRemaining());
          }
        }
        out.put(k.cliName(), m);
      }
      return out;
    }

    /** What the ex-post filter has left at its order, rounded down. */
    double exPostRemaining() {
      return down(new BigDecimal(exPostLimit).subtract(exPost));
    }

    /** What the basic filter has left as an (ε, δ), (0, 0) if the ledger has none. */
    ApproxDp basicRemaining() {
      ApproxDp b = sub.get(FilterKind.BASIC);
      if (b == null || epsilonInfinite) {
        return new ApproxDp(0, 0);
      }
      return new ApproxDp(down(new BigDecimal(b.epsilon()).subtract(epsilon)),
          down(new BigDecimal(b.delta()).subtract(delta)));
    }
  }

  private static double largestEpsilonBelow(double cap, double e) {
    return Math.min(cap, e);
  }

  private static BigDecimal square(double x) {
    BigDecimal b = new BigDecimal(x);
    return b.multiply(b);
  }

  private static double down(BigDecimal x) {
    if (x.signum() <= 0) {
      return 0;
    }
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) > 0 ? Math.nextDown(d) : d;
  }

  State state(List<Counted> charges) {
    State s = new State();
    for (Counted c : charges) {
      s.add(c);
    }
    return s;
  }
}
