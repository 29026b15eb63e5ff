package dev.tradeoff.accounting.zcdp;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.conversion.RdpProfile;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.EventTrees;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.Optional;

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
public final class ZcdpAccountant implements Accountant {

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
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    return EventTrees.firstUnsupportedLeaf(event, leaf -> whyLeafUnsupported(leaf, neighbouring));
  }

  private Optional<String> whyLeafUnsupported(DpEvent event, Neighbouring neighbouring) {
    if (event instanceof GaussianEvent
        || event instanceof DiscreteGaussianEvent
        || event instanceof LaplaceEvent
        || event instanceof RandomizedResponseEvent
        || event instanceof DiscreteLaplaceEvent) {
      return Optional.empty();
    }
    if (event instanceof GuaranteeEvent g) {
      PrivacyGuarantee p = g.guarantee();
      if (p instanceof PureDp || p instanceof ZeroConcentratedDp || p instanceof GaussianDp) {
        return Optional.empty();
      }
      if (p instanceof ApproxDp a && a.isPure()) {
        return Optional.empty();
      }
      return Optional.of(
          "a " + p.getClass().getSimpleName() + " guarantee implies no zCDP bound here");
    }
    return Optional.of(
        "zCDP has no analysis of " + event.getClass().getSimpleName() + " (no amplification)");
  }

  @Override
  public RdpProfile account(DpEvent event, Neighbouring neighbouring) {
    return RdpConversion.toProfile(
        RdpConversion.zcdpToRenyiDp(zcdp(event, neighbouring), orders));
  }

  /**
   * The total ρ of the event.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public ZeroConcentratedDp zcdp(DpEvent event, Neighbouring neighbouring) {
    requireSupported(event, neighbouring);
    return new ZeroConcentratedDp(EventTrees.additive(event, ZcdpAccountant::leafRho));
  }

  private static double leafRho(DpEvent event) {
    if (event instanceof GaussianEvent g) {
      return 1 / (2 * g.sigma() * g.sigma());
    }
    if (event instanceof DiscreteGaussianEvent g) {
      return 1 / (2 * g.sigma() * g.sigma());
    }
    if (event instanceof LaplaceEvent l) {
      return pure(1 / l.scale());
    }
    if (event instanceof DiscreteLaplaceEvent l) {
      return pure(1 / l.scale());
    }
    if (event instanceof RandomizedResponseEvent r) {
      return pure(r.epsilon());
    }
    if (event instanceof GuaranteeEvent g) {
      PrivacyGuarantee p = g.guarantee();
      if (p instanceof PureDp d) {
        return pure(d.epsilon());
      }
      if (p instanceof ApproxDp d) {
        return pure(d.epsilon());
      }
      if (p instanceof ZeroConcentratedDp z) {
        return z.rho();
      }
      if (p instanceof GaussianDp gdp) {
        return gdp.mu() * gdp.mu() / 2;
      }
    }
    throw new IllegalStateException("unreachable: checked by whyUnsupported: " + event);
  }

  private static double pure(double epsilon) {
    return epsilon * epsilon / 2;
  }
}
