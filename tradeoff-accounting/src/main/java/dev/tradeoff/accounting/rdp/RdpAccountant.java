package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.conversion.RdpProfile;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.EventTrees;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * The Rényi-DP accountant (Mironov 2017): every event is turned into its RDP curve ε(α) on a fixed
 * order grid, curves add under composition (Mironov 2017, Proposition 1), and the total converts to
 * a privacy profile with the improved conversion of Canonne, Kamath and Steinke (2020) at the best
 * order ({@link RdpProfile}; its ε(δ) is computed directly, not by bisection).
 *
 * <p>Supported events and the analysis used:
 *
 * <ul>
 *   <li>{@link GaussianEvent}: α/(2σ²); {@link LaplaceEvent}: Mironov 2017 closed form;
 *       {@link RandomizedResponseEvent}: exact k-ary divergence; {@link DiscreteLaplaceEvent}:
 *       exact; {@link DiscreteGaussianEvent}: α/(2σ²) (CKS 2020, zCDP) — see {@link MechanismRdp};
 *   <li>{@link GuaranteeEvent} of {@link PureDp} (tight, via binary randomized response), {@link
 *       ApproxDp} with δ = 0 (as pure), {@link ZeroConcentratedDp} (ρα), {@link RenyiDp} (its value
 *       at the smallest own order ≥ α; +∞ beyond its grid) and {@link GaussianDp} (αμ²/2);
 *   <li>{@link PoissonSampledEvent} of a {@link GaussianEvent} under add/remove-one (Mironov,
 *       Talwar and Zhang 2019; {@link SampledGaussianRdp});
 *   <li>{@link SampledWithoutReplacementEvent} of any supported event, under replace-one
 *       neighbouring only (Wang, Balle and Kasiviswanathan 2019, Theorem 9; {@link
 *       SampledWithoutReplacementRdp}): the inner curve is evaluated at the integer orders 2, …,
 *       ⌈largest grid order⌉, its pure-DP parameter ε(∞) is read off the event where it has one
 *       (Laplace 1/b, discrete Laplace 1/t, randomized response ε, pure-DP guarantees, and their
 *       compositions; +∞ otherwise), and a grid order α is answered with the bound at ⌈α⌉ (also
 *       capped by the inner curve at α);
 *   <li>{@link SelfComposedEvent} and {@link ComposedEvent} of supported events.
 * </ul>
 *
 * Everything else, including Poisson sampling under replace-one and sampling without replacement
 * under add/remove-one, is refused with a reason.
 */
public final class RdpAccountant implements Accountant {

  private final double[] orders;

  /** An accountant over {@link RenyiDp#defaultOrders()}. */
  public RdpAccountant() {
    this(RenyiDp.defaultOrders());
  }

  /**
   * An accountant over the given order grid.
   *
   * @param orders strictly increasing Rényi orders, each &gt; 1 and finite
   */
  public RdpAccountant(double[] orders) {
    this.orders = RenyiDp.of(orders, new double[Require.nonNull("orders", orders).length]).orders();
  }

  /** The order grid (a copy). */
  public double[] orders() {
    return orders.clone();
  }

  @Override
  public AccountingMethod method() {
    return AccountingMethod.RDP;
  }

  @Override
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    return EventTrees.firstUnsupportedLeaf(event, leaf -> whyLeafUnsupported(leaf, neighbouring));
  }

  private Optional<String> whyLeafUnsupported(DpEvent event, Neighbouring neighbouring) {
    if (event instanceof GaussianEvent
        || event instanceof LaplaceEvent
        || event instanceof RandomizedResponseEvent
        || event instanceof DiscreteLaplaceEvent
        || event instanceof DiscreteGaussianEvent) {
      return Optional.empty();
    }
    if (event instanceof GuaranteeEvent g) {
      return whyGuaranteeUnsupported(g.guarantee());
    }
    if (event instanceof PoissonSampledEvent p) {
      if (neighbouring != Neighbouring.ADD_OR_REMOVE_ONE) {
        return Optional.of(
            "Poisson subsampling is analysed under add/remove-one neighbouring only, but the"
                + " relation was " + neighbouring);
      }
      if (!(p.event() instanceof GaussianEvent)) {
        return Optional.of(
            "only a Poisson-subsampled Gaussian has an RDP analysis here (Mironov-Talwar-Zhang"
                + " 2019), but the inner event was " + p.event());
      }
      return Optional.empty();
    }
    if (event instanceof SampledWithoutReplacementEvent w) {
      if (neighbouring != Neighbouring.REPLACE_ONE) {
        return Optional.of(
            "sampling without replacement is analysed under replace-one neighbouring only"
                + " (Wang-Balle-Kasiviswanathan 2019), but the relation was " + neighbouring);
      }
      return whyUnsupported(w.event(), neighbouring);
    }
    return Optional.of("unknown event type " + event.getClass().getSimpleName());
  }

  /**
   * The privacy profile of the event: improved RDP→(ε, δ) conversion at the best grid order.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  @Override
  public RdpProfile account(DpEvent event, Neighbouring neighbouring) {
    return new RdpProfile(rdp(event, neighbouring));
  }

  /**
   * The composed RDP curve of the event on this accountant's grid.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public RenyiDp rdp(DpEvent event, Neighbouring neighbouring) {
    requireSupported(event, neighbouring);
    return RenyiDp.of(orders, curve(event));
  }

  private double[] curve(DpEvent event) {
    if (event instanceof GaussianEvent g) {
      return eval(a -> MechanismRdp.gaussian(g.sigma(), a));
    }
    if (event instanceof LaplaceEvent l) {
      return eval(a -> MechanismRdp.laplace(l.scale(), a));
    }
    if (event instanceof RandomizedResponseEvent r) {
      return eval(a -> MechanismRdp.randomizedResponse(r.epsilon(), r.categories(), a));
    }
    if (event instanceof DiscreteLaplaceEvent d) {
      return eval(a -> MechanismRdp.discreteLaplace(d.scale(), a));
    }
    if (event instanceof DiscreteGaussianEvent d) {
      return eval(a -> MechanismRdp.discreteGaussian(d.sigma(), a));
    }
    if (event instanceof GuaranteeEvent g) {
      return eval(guaranteeCurve(g.guarantee()));
    }
    if (event instanceof PoissonSampledEvent p) {
      double sigma = ((GaussianEvent) p.event()).sigma();
      return eval(a -> SampledGaussianRdp.epsilon(p.samplingProbability(), sigma, a));
    }
    if (event instanceof SampledWithoutReplacementEvent w) {
      return withoutReplacementCurve(w);
    }
    if (event instanceof SelfComposedEvent s) {
      double[] inner = curve(s.event());
      for (int i = 0; i < inner.length; i++) {
        inner[i] *= s.count();
      }
      return inner;
    }
    if (event instanceof ComposedEvent c) {
      double[] total = new double[orders.length];
      for (DpEvent e : c.events()) {
        double[] part = curve(e);
        for (int i = 0; i < total.length; i++) {
          total[i] += part[i];
        }
      }
      return total;
    }
    throw new IllegalStateException("unreachable: checked by whyUnsupported: " + event);
  }

  /**
   * [WBK19, Theorem 9] on this grid; see {@link SampledWithoutReplacementRdp}. Grid orders above
   * {@link SampledWithoutReplacementRdp#MAX_ORDER} (whose bound would need that many inner orders)
   * get the weaker but valid min{inner ε(α), log(1 + γ(e^{ε(∞)} − 1))}. Every order is also capped
   * by the inner curve at that order, and finally takes the least value at any order ≥ it.
   */
  private double[] withoutReplacementCurve(SampledWithoutReplacementEvent w) {
    int evaluated = 0;
    int largest = 2;
    while (evaluated < orders.length
        && orders[evaluated] <= SampledWithoutReplacementRdp.MAX_ORDER) {
      largest = Math.max(largest, (int) Math.ceil(orders[evaluated]));
      evaluated++;
    }
    double[] integerOrders = new double[largest - 1];
    for (int j = 2; j <= largest; j++) {
      integerOrders[j - 2] = j;
    }
    double[] innerAtIntegers = new RdpAccountant(integerOrders).curve(w.event());
    double[] innerOnGrid = curve(w.event());
    double pure = pureEpsilon(w.event());
    double gamma = WithoutReplacementAmplification.samplingRatio(w.datasetSize(), w.sampleSize());
    double[] e = new double[orders.length];
    double[] bounds =
        SampledWithoutReplacementRdp.epsilons(
            gamma, j -> innerAtIntegers[j - 2], pure, Arrays.copyOf(orders, evaluated));
    double amplifiedPure = WithoutReplacementAmplification.amplifiedEpsilon(pure, gamma);
    for (int i = 0; i < e.length; i++) {
      e[i] = Math.min(i < evaluated ? bounds[i] : amplifiedPure, innerOnGrid[i]);
    }
    // D_α is non-decreasing in α, so a bound at a larger order also bounds a smaller one: the
    // suffix minimum is valid and makes the curve monotone (the WBK bound itself need not be).
    for (int i = e.length - 2; i >= 0; i--) {
      e[i] = Math.min(e[i], e[i + 1]);
    }
    return e;
  }

  /**
   * The pure-DP parameter ε(∞) of an event that has one, +∞ otherwise (always a valid answer).
   * Values are rounded up.
   */
  static double pureEpsilon(DpEvent event) {
    if (event instanceof LaplaceEvent l) {
      return inverseRoundedUp(l.scale());
    }
    if (event instanceof DiscreteLaplaceEvent d) {
      return inverseRoundedUp(d.scale());
    }
    if (event instanceof RandomizedResponseEvent r) {
      return r.epsilon();
    }
    if (event instanceof GuaranteeEvent g) {
      if (g.guarantee() instanceof PureDp p) {
        return p.epsilon();
      }
      if (g.guarantee() instanceof ApproxDp a && a.isPure()) {
        return a.epsilon();
      }
      return Double.POSITIVE_INFINITY;
    }
    if (event instanceof SampledWithoutReplacementEvent w) {
      return WithoutReplacementAmplification.amplifiedEpsilon(
          pureEpsilon(w.event()),
          WithoutReplacementAmplification.samplingRatio(w.datasetSize(), w.sampleSize()));
    }
    if (event instanceof SelfComposedEvent s) {
      double product = s.count() * pureEpsilon(s.event());
      return product == 0 ? 0 : Math.nextUp(product);
    }
    if (event instanceof ComposedEvent c) {
      double sum = 0;
      for (DpEvent e : c.events()) {
        double part = pureEpsilon(e);
        sum = part == 0 ? sum : Math.nextUp(sum + part);
      }
      return sum;
    }
    return Double.POSITIVE_INFINITY;
  }

  /** 1/x rounded up. */
  private static double inverseRoundedUp(double x) {
    double q = 1 / x;
    return Double.isFinite(q) && Math.fma(q, x, -1) < 0 ? Math.nextUp(q) : q;
  }

  private static Optional<String> whyGuaranteeUnsupported(PrivacyGuarantee g) {
    if (g instanceof PureDp
        || g instanceof ZeroConcentratedDp
        || g instanceof RenyiDp
        || g instanceof GaussianDp) {
      return Optional.empty();
    }
    if (g instanceof ApproxDp a) {
      return a.isPure()
          ? Optional.empty()
          : Optional.of("an (epsilon, delta) guarantee with delta > 0 implies no Renyi bound");
    }
    return Optional.of(
        "a " + g.getClass().getSimpleName() + " guarantee has no Renyi-DP conversion here");
  }

  private static DoubleUnaryOperator guaranteeCurve(PrivacyGuarantee g) {
    if (g instanceof PureDp p) {
      return a -> MechanismRdp.randomizedResponse(p.epsilon(), 2, a);
    }
    if (g instanceof ApproxDp p) {
      return a -> MechanismRdp.randomizedResponse(p.epsilon(), 2, a);
    }
    if (g instanceof ZeroConcentratedDp z) {
      return a -> z.rho() * a;
    }
    if (g instanceof RenyiDp r) {
      return r::epsilonAt;
    }
    if (g instanceof GaussianDp gdp) {
      return a -> a * gdp.mu() * gdp.mu() / 2;
    }
    throw new IllegalStateException("unreachable: checked by whyUnsupported: " + g);
  }

  private double[] eval(DoubleUnaryOperator epsilonOfOrder) {
    double[] e = new double[orders.length];
    for (int i = 0; i < e.length; i++) {
      e[i] = epsilonOfOrder.applyAsDouble(orders[i]);
    }
    return e;
  }
}
