package dev.tradeoff.accounting.gdp;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion.GaussianDpProfile;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.EventTrees;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import java.util.Optional;

/**
 * The Gaussian-DP accountant (Dong, Roth and Su 2022): a Gaussian mechanism with noise σ on a
 * sensitivity-1 query is exactly (1/σ)-GDP, and μ composes as √(Σ μᵢ²) (their Corollary 3.3). The
 * result is exact for Gaussian events: the profile is the tight δ(ε) of μ-GDP
 * ({@link GaussianDpConversion}). Only {@link GaussianEvent}, {@link GaussianDp} guarantees and
 * their compositions are accepted; anything else is refused (a GDP approximation, e.g. via the
 * central limit theorem, would not be an upper bound).
 */
public final class GdpAccountant implements Accountant {

  /** A stateless accountant; every instance behaves the same. */
  public GdpAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.GDP;
  }

  @Override
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    return EventTrees.firstUnsupportedLeaf(event, leaf -> whyLeafUnsupported(leaf, neighbouring));
  }

  private Optional<String> whyLeafUnsupported(DpEvent event, Neighbouring neighbouring) {
    if (event instanceof GaussianEvent) {
      return Optional.empty();
    }
    if (event instanceof GuaranteeEvent g) {
      return g.guarantee() instanceof GaussianDp
          ? Optional.empty()
          : Optional.of(
              "only GaussianDp guarantees compose in GDP, but was "
                  + g.guarantee().getClass().getSimpleName());
    }
    return Optional.of(
        "GDP accounting is exact only for Gaussian mechanisms, but the event was "
            + event.getClass().getSimpleName());
  }

  @Override
  public GaussianDpProfile account(DpEvent event, Neighbouring neighbouring) {
    return GaussianDpConversion.toProfile(gdp(event, neighbouring));
  }

  /**
   * The composed μ of the event.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public GaussianDp gdp(DpEvent event, Neighbouring neighbouring) {
    requireSupported(event, neighbouring);
    return new GaussianDp(Math.sqrt(EventTrees.additive(event, GdpAccountant::leafMuSquared)));
  }

  private static double leafMuSquared(DpEvent event) {
    if (event instanceof GaussianEvent g) {
      return 1 / (g.sigma() * g.sigma());
    }
    if (event instanceof GuaranteeEvent g) {
      double mu = ((GaussianDp) g.guarantee()).mu();
      return mu * mu;
    }
    throw new IllegalStateException("unreachable: checked by whyUnsupported: " + event);
  }
}
