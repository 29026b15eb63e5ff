package dev.tradeoff.accounting.gdp;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.AdditiveWalk;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion.GaussianDpProfile;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;

/**
 * The Gaussian-DP accountant (Dong, Roth and Su 2022): a Gaussian mechanism with noise σ on a
 * sensitivity-1 query is exactly (1/σ)-GDP, and μ composes as √(Σ μᵢ²) (their Corollary 3.3). The
 * result is exact for Gaussian events: the profile is the tight δ(ε) of μ-GDP
 * ({@link GaussianDpConversion}). Only {@link GaussianEvent}, {@link GaussianDp} guarantees and
 * their compositions are accepted; anything else is refused (a GDP approximation, e.g. via the
 * central limit theorem, would not be an upper bound).
 */
public final class GdpAccountant extends EventAccountant<Double, GaussianDpProfile> {

  /** A stateless accountant; every instance behaves the same. */
  public GdpAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.GDP;
  }

  @Override
  protected Analysis<Double> analyse(DpEvent event, Neighbouring neighbouring) {
    return new MuSquared(neighbouring).of(event);
  }

  @Override
  protected GaussianDpProfile profile(Double muSquared) {
    return GaussianDpConversion.toProfile(new GaussianDp(Math.sqrt(muSquared)));
  }

  /**
   * The composed μ of the event.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public GaussianDp gdp(DpEvent event, Neighbouring neighbouring) {
    return new GaussianDp(Math.sqrt(analysed(event, neighbouring)));
  }

  /** The walk: μ² of each Gaussian leaf, added over the composition. */
  private static final class MuSquared extends AdditiveWalk {

    MuSquared(Neighbouring neighbouring) {
      super(neighbouring);
    }

    @Override
    public Analysis<Double> gaussian(GaussianEvent event) {
      return Analysis.of(1 / (event.sigma() * event.sigma()));
    }

    @Override
    public Analysis<Double> guarantee(GuaranteeEvent event) {
      if (event.guarantee() instanceof GaussianDp g) {
        return Analysis.of(g.mu() * g.mu());
      }
      return Analysis.refused("only GaussianDp guarantees compose in GDP, but was "
          + event.guarantee().getClass().getSimpleName());
    }

    private static Analysis<Double> notGaussian(DpEvent event) {
      return Analysis.refused("GDP accounting is exact only for Gaussian mechanisms, but the event was "
          + event.getClass().getSimpleName());
    }

    @Override
    public Analysis<Double> laplace(LaplaceEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Double> discreteLaplace(DiscreteLaplaceEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Double> discreteGaussian(DiscreteGaussianEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Double> randomizedResponse(RandomizedResponseEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Double> poissonSampled(PoissonSampledEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Double> sampledWithoutReplacement(SampledWithoutReplacementEvent event) {
      return notGaussian(event);
    }
  }
}
