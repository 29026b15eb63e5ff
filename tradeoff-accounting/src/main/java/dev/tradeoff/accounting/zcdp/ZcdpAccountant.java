package dev.tradeoff.accounting.zcdp;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.AdditiveWalk;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.RdpConversion;
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

/**
 * The zero-concentrated-DP accountant (Bun and Steinke 2016): each event contributes a ρ, ρ adds
 * under composition (their Lemma 2.3), and the total ρ-zCDP is converted to (ε, δ) as the RDP
 * curve ρα (Definition 1.1) on an order grid with the improved conversion of Canonne, Kamath and
 * Steinke (2020) ({@link RdpProfile}).
 *
 * <p>ρ per event: Gaussian σ and discrete Gaussian σ: 1/(2σ²) (Bun–Steinke Prop. 1.6; CKS 2020);
 * μ-GDP: μ²/2; pure ε-DP — Laplace with scale b (ε = 1/b), randomized response, discrete Laplace
 * with scale t (ε = 1/t), {@link PureDp} and {@link ApproxDp} with δ = 0 — ε²/2 (Bun–Steinke Prop.
 * 3.3); {@link ZeroConcentratedDp} as stated. Sampling events and other guarantees are refused: zCDP
 * has no subsampling amplification.
 */
public final class ZcdpAccountant extends EventAccountant<Double, RdpProfile> {

  private final double[] orders;

  /** An accountant that converts on {@link RenyiDp#defaultOrders()}. */
  public ZcdpAccountant() {
    this(RenyiDp.defaultOrders());
  }

  /** An accountant that converts on the given strictly increasing order grid. */
  public ZcdpAccountant(double[] orders) {
    this.orders = RenyiDp.of(orders, new double[Require.nonNull("orders", orders).length]).orders();
  }

  @Override
  public AccountingMethod method() {
    return AccountingMethod.ZCDP;
  }

  @Override
  protected Analysis<Double> analyse(DpEvent event, Neighbouring neighbouring) {
    return new Rho(neighbouring).of(event);
  }

  @Override
  protected RdpProfile profile(Double rho) {
    return RdpConversion.toProfile(
        RdpConversion.zcdpToRenyiDp(new ZeroConcentratedDp(rho), orders));
  }

  /**
   * The total ρ of the event.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public ZeroConcentratedDp zcdp(DpEvent event, Neighbouring neighbouring) {
    return new ZeroConcentratedDp(analysed(event, neighbouring));
  }

  /** The walk: ρ of each leaf, added over the composition. */
  private static final class Rho extends AdditiveWalk {

    Rho(Neighbouring neighbouring) {
      super(neighbouring);
    }

    @Override
    public Analysis<Double> gaussian(GaussianEvent event) {
      return Analysis.of(1 / (2 * event.sigma() * event.sigma()));
    }

    @Override
    public Analysis<Double> discreteGaussian(DiscreteGaussianEvent event) {
      return Analysis.of(1 / (2 * event.sigma() * event.sigma()));
    }

    @Override
    public Analysis<Double> laplace(LaplaceEvent event) {
      return Analysis.of(pure(1 / event.scale()));
    }

    @Override
    public Analysis<Double> discreteLaplace(DiscreteLaplaceEvent event) {
      return Analysis.of(pure(1 / event.scale()));
    }

    @Override
    public Analysis<Double> randomizedResponse(RandomizedResponseEvent event) {
      return Analysis.of(pure(event.epsilon()));
    }

    @Override
    public Analysis<Double> guarantee(GuaranteeEvent event) {
      PrivacyGuarantee p = event.guarantee();
      if (p instanceof PureDp d) {
        return Analysis.of(pure(d.epsilon()));
      }
      if (p instanceof ApproxDp d && d.isPure()) {
        return Analysis.of(pure(d.epsilon()));
      }
      if (p instanceof ZeroConcentratedDp z) {
        return Analysis.of(z.rho());
      }
      if (p instanceof GaussianDp gdp) {
        return Analysis.of(gdp.mu() * gdp.mu() / 2);
      }
      return Analysis.refused(
          "a " + p.getClass().getSimpleName() + " guarantee implies no zCDP bound here");
    }

    @Override
    public Analysis<Double> poissonSampled(PoissonSampledEvent event) {
      return noAmplification(event);
    }

    @Override
    public Analysis<Double> sampledWithoutReplacement(SampledWithoutReplacementEvent event) {
      return noAmplification(event);
    }

    private static Analysis<Double> noAmplification(DpEvent event) {
      return Analysis.refused("zCDP has no analysis of " + event.getClass().getSimpleName()
          + " (no amplification)");
    }
  }

  private static double pure(double epsilon) {
    return epsilon * epsilon / 2;
  }
}
