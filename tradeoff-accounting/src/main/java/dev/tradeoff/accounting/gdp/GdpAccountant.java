package dev.tradeoff.accounting.gdp;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.CompositionWalk;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.conversion.GaussianDpConversion.GaussianDpProfile;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.List;

/**
 * The Gaussian-DP accountant (Dong, Roth and Su 2022): a Gaussian mechanism with noise σ on a
 * sensitivity-1 query is exactly (1/σ)-GDP, and μ composes as √(Σ μᵢ²) (their Corollary 3.3). The
 * result is exact for Gaussian events: the profile is the tight δ(ε) of μ-GDP
 * ({@link GaussianDpConversion}); shuffled epochs of Gaussians are charged as unsampled steps, an
 * upper bound only, and such a profile claims no lower bound. Only {@link GaussianEvent}, {@link
 * GaussianDp} guarantees and their compositions (and shuffled epochs of them) are accepted; anything else is refused (a GDP approximation, e.g. via the
 * central limit theorem, would not be an upper bound).
 */
public final class GdpAccountant extends EventAccountant<GdpAccountant.Mu, PrivacyProfile> {

  /** A stateless accountant; every instance behaves the same. */
  public GdpAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.GDP;
  }

  /**
   * The composed μ², and whether it is exact: shuffled epochs are charged as unsampled steps, an
   * upper bound only, and then the profile claims no lower bound.
   */
  record Mu(double squared, boolean exact) {}

  @Override
  protected Analysis<Mu> analyse(DpEvent event, Neighbouring neighbouring) {
    return new MuSquared(neighbouring).of(event);
  }

  /** The tight profile of μ-GDP where μ is exact; otherwise the same upper bounds, lower ends 0. */
  @Override
  protected PrivacyProfile profile(Mu mu) {
    GaussianDpProfile exact = GaussianDpConversion.toProfile(new GaussianDp(Math.sqrt(mu.squared())));
    return mu.exact() ? exact : PrivacyProfile.upperEndsOf(exact);
  }

  /**
   * The composed μ of the event.
   *
   * @throws UnsupportedEventException if {@link #whyUnsupported} gives a reason
   */
  public GaussianDp gdp(DpEvent event, Neighbouring neighbouring) {
    return new GaussianDp(Math.sqrt(analysed(event, neighbouring).squared()));
  }

  /** The walk: μ² of each Gaussian leaf, added over the composition. */
  private static final class MuSquared extends CompositionWalk<Mu> {

    MuSquared(Neighbouring neighbouring) {
      super(neighbouring);
    }

    @Override
    protected Analysis<Mu> repeated(Mu value, int count) {
      return Analysis.of(new Mu(count * value.squared(), value.exact()));
    }

    @Override
    protected Analysis<Mu> together(List<Mu> values) {
      double total = 0;
      boolean exact = true;
      for (Mu v : values) {
        total += v.squared();
        exact &= v.exact();
      }
      return Analysis.of(new Mu(total, exact));
    }

    @Override
    public Analysis<Mu> shuffledEpochs(ShuffledEpochsEvent event) {
      return super.shuffledEpochs(event).map(mu -> new Mu(mu.squared(), false));
    }

    @Override
    public Analysis<Mu> gaussian(GaussianEvent event) {
      return Analysis.of(new Mu(1 / (event.sigma() * event.sigma()), true));
    }

    @Override
    public Analysis<Mu> guarantee(GuaranteeEvent event) {
      if (event.guarantee() instanceof GaussianDp g) {
        return Analysis.of(new Mu(g.mu() * g.mu(), true));
      }
      return Analysis.refused("only GaussianDp guarantees compose in GDP, but was "
          + event.guarantee().getClass().getSimpleName());
    }

    private static Analysis<Mu> notGaussian(DpEvent event) {
      return Analysis.refused("GDP accounting is exact only for Gaussian mechanisms, but the event was "
          + event.getClass().getSimpleName());
    }

    @Override
    public Analysis<Mu> laplace(LaplaceEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Mu> discreteLaplace(DiscreteLaplaceEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Mu> discreteGaussian(DiscreteGaussianEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Mu> randomizedResponse(RandomizedResponseEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Mu> poissonSampled(PoissonSampledEvent event) {
      return notGaussian(event);
    }

    @Override
    public Analysis<Mu> sampledWithoutReplacement(SampledWithoutReplacementEvent event) {
      return notGaussian(event);
    }
  }
}
