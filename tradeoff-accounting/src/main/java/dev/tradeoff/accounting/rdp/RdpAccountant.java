package dev.tradeoff.accounting.rdp;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.CompositionWalk;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.composition.WithoutReplacementAmplification;
import dev.tradeoff.accounting.conversion.RdpProfile;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;

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
 *   <li>self-composition and composition of supported events.
 * </ul>
 *
 * Everything else, including Poisson sampling under replace-one and sampling without replacement
 * under add/remove-one, is refused with a reason.
 */
public final class RdpAccountant extends EventAccountant<RdpAccountant.Term, RdpProfile> {

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

  /**
   * What the walk gives for an event: its RDP curve on any order grid (computed when asked) and
   * its pure-DP parameter ε(∞) where the event has one (+∞ otherwise; always a valid answer),
   * rounded up.
   */
  record Term(UnaryOperator<double[]> curve, double pureEpsilon) {}

  @Override
  protected Analysis<Term> analyse(DpEvent event, Neighbouring neighbouring) {
    return new Curves(neighbouring).of(event);
  }

  /** The improved RDP→(ε, δ) conversion at the best grid order. */
  @Override
  protected RdpProfile profile(Term term) {
    return new RdpProfile(RenyiDp.of(orders, term.curve().apply(orders)));
  }

  /**
   * The composed RDP curve of the event on this accountant's grid.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public RenyiDp rdp(DpEvent event, Neighbouring neighbouring) {
    return RenyiDp.of(orders, analysed(event, neighbouring).curve().apply(orders));
  }

  /**
   * The pure-DP parameter ε(∞) of an event that has one under replace-one, +∞ otherwise, rounded
   * up.
   */
  static double pureEpsilon(DpEvent event) {
    return new Curves(Neighbouring.REPLACE_ONE).of(event)
        .orThrow(AccountingMethod.RDP, event).pureEpsilon();
  }

  /** The walk under one relation. */
  private static final class Curves extends CompositionWalk<Term> {

    Curves(Neighbouring neighbouring) {
      super(neighbouring);
    }

    @Override
    protected Analysis<Term> repeated(Term inner, int count) {
      double product = count * inner.pureEpsilon();
      return Analysis.of(new Term(
          o -> {
            double[] e = inner.curve().apply(o);
            for (int i = 0; i < e.length; i++) {
              e[i] *= count;
            }
            return e;
          },
          product == 0 ? 0 : Math.nextUp(product)));
    }

    @Override
    protected Analysis<Term> together(List<Term> parts) {
      double pure = 0;
      for (Term t : parts) {
        pure = t.pureEpsilon() == 0 ? pure : Math.nextUp(pure + t.pureEpsilon());
      }
      return Analysis.of(new Term(
          o -> {
            double[] total = new double[o.length];
            for (Term t : parts) {
              double[] part = t.curve().apply(o);
              for (int i = 0; i < total.length; i++) {
                total[i] += part[i];
              }
            }
            return total;
          },
          pure));
    }

    private static Analysis<Term> leaf(DoubleUnaryOperator epsilonOfOrder, double pure) {
      return Analysis.of(new Term(o -> eval(o, epsilonOfOrder), pure));
    }

    @Override
    public Analysis<Term> gaussian(GaussianEvent g) {
      return leaf(a -> MechanismRdp.gaussian(g.sigma(), a), Double.POSITIVE_INFINITY);
    }

    @Override
    public Analysis<Term> laplace(LaplaceEvent l) {
      return leaf(a -> MechanismRdp.laplace(l.scale(), a), inverseRoundedUp(l.scale()));
    }

    @Override
    public Analysis<Term> randomizedResponse(RandomizedResponseEvent r) {
      return leaf(a -> MechanismRdp.randomizedResponse(r.epsilon(), r.categories(), a),
          r.epsilon());
    }

    @Override
    public Analysis<Term> discreteLaplace(DiscreteLaplaceEvent d) {
      return leaf(a -> MechanismRdp.discreteLaplace(d.scale(), a), inverseRoundedUp(d.scale()));
    }

    @Override
    public Analysis<Term> discreteGaussian(DiscreteGaussianEvent d) {
      return leaf(a -> MechanismRdp.discreteGaussian(d.sigma(), a), Double.POSITIVE_INFINITY);
    }

    @Override
    public Analysis<Term> guarantee(GuaranteeEvent event) {
      PrivacyGuarantee g = event.guarantee();
      if (g instanceof PureDp p) {
        return leaf(a -> MechanismRdp.randomizedResponse(p.epsilon(), 2, a), p.epsilon());
      }
      if (g instanceof ApproxDp p) {
        return p.isPure()
            ? leaf(a -> MechanismRdp.randomizedResponse(p.epsilon(), 2, a), p.epsilon())
            : Analysis.refused(
                "an (epsilon, delta) guarantee with delta > 0 implies no Renyi bound");
      }
      if (g instanceof ZeroConcentratedDp z) {
        return leaf(a -> z.rho() * a, Double.POSITIVE_INFINITY);
      }
      if (g instanceof RenyiDp r) {
        return leaf(r::epsilonAt, Double.POSITIVE_INFINITY);
      }
      if (g instanceof GaussianDp gdp) {
        return leaf(a -> a * gdp.mu() * gdp.mu() / 2, Double.POSITIVE_INFINITY);
      }
      return Analysis.refused(
          "a " + g.getClass().getSimpleName() + " guarantee has no Renyi-DP conversion here");
    }

    @Override
    public Analysis<Term> poissonSampled(PoissonSampledEvent p) {
      if (neighbouring() != Neighbouring.ADD_OR_REMOVE_ONE) {
        return Analysis.refused(
            "Poisson subsampling is analysed under add/remove-one neighbouring only, but the"
                + " relation was " + neighbouring());
      }
      if (!(p.event() instanceof GaussianEvent g)) {
        return Analysis.refused(
            "only a Poisson-subsampled Gaussian has an RDP analysis here (Mironov-Talwar-Zhang"
                + " 2019), but the inner event was " + p.event());
      }
      double q = p.samplingProbability();
      return leaf(a -> SampledGaussianRdp.epsilon(q, g.sigma(), a), Double.POSITIVE_INFINITY);
    }

    @Override
    public Analysis<Term> sampledWithoutReplacement(SampledWithoutReplacementEvent w) {
      if (neighbouring() != Neighbouring.REPLACE_ONE) {
        return Analysis.refused(
            "sampling without replacement is analysed under replace-one neighbouring only"
                + " (Wang-Balle-Kasiviswanathan 2019), but the relation was " + neighbouring());
      }
      double gamma = WithoutReplacementAmplification.samplingRatio(w.datasetSize(), w.sampleSize());
      return of(w.event()).map(inner -> new Term(
          o -> withoutReplacementCurve(o, inner, gamma),
          WithoutReplacementAmplification.amplifiedEpsilon(inner.pureEpsilon(), gamma)));
    }
  }

  /**
   * [WBK19, Theorem 9] on the grid; see {@link SampledWithoutReplacementRdp}. Grid orders above
   * {@link SampledWithoutReplacementRdp#MAX_ORDER} (whose bound would need that many inner orders)
   * get the weaker but valid min{inner ε(α), log(1 + γ(e^{ε(∞)} − 1))}. Every order is also capped
   * by the inner curve at that order, and finally takes the least value at any order ≥ it.
   */
  private static double[] withoutReplacementCurve(double[] orders, Term inner, double gamma) {
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
    double[] innerAtIntegers = inner.curve().apply(integerOrders);
    double[] innerOnGrid = inner.curve().apply(orders);
    double pure = inner.pureEpsilon();
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

  /** 1/x rounded up. */
  private static double inverseRoundedUp(double x) {
    double q = 1 / x;
    return Double.isFinite(q) && Math.fma(q, x, -1) < 0 ? Math.nextUp(q) : q;
  }

  private static double[] eval(double[] orders, DoubleUnaryOperator epsilonOfOrder) {
    double[] e = new double[orders.length];
    for (int i = 0; i < e.length; i++) {
      e[i] = epsilonOfOrder.applyAsDouble(orders[i]);
    }
    return e;
  }
}
