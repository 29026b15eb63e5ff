package dev.tradeoff.accounting.gdp;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.conversion.GaussianDpConversion.GaussianDpProfile;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
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

  @Override
  public AccountingMethod method() {
    return AccountingMethod.GDP;
  }

  @Override
  public Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
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
    if (event instanceof SelfComposedEvent s) {
      return whyUnsupported(s.event(), neighbouring);
    }
    if (event instanceof ComposedEvent c) {
      for (DpEvent e : c.events()) {
        Optional<String> why = whyUnsupported(e, neighbouring);
        if (why.isPresent()) {
          return why;
        }
      }
      return Optional.empty();
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
    Optional<String> why = whyUnsupported(event, neighbouring);
    if (why.isPresent()) {
      throw new UnsupportedEventException(AccountingMethod.GDP, event, why.get());
    }
    return new GaussianDp(Math.sqrt(muSquared(event)));
  }

  private static double muSquared(DpEvent event) {
    if (event instanceof GaussianEvent g) {
      return 1 / (g.sigma() * g.sigma());
    }
    if (event instanceof GuaranteeEvent g) {
      double mu = ((GaussianDp) g.guarantee()).mu();
      return mu * mu;
    }
    if (event instanceof SelfComposedEvent s) {
      return muSquared(s.event()) * s.count();
    }
    if (event instanceof ComposedEvent c) {
      double total = 0;
      for (DpEvent e : c.events()) {
        total += muSquared(e);
      }
      return total;
    }
    throw new IllegalStateException("unreachable: checked by whyUnsupported: " + event);
  }
}
