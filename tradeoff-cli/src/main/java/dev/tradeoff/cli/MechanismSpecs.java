package dev.tradeoff.cli;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.Set;

/**
 * Turns the {@code --mechanism} specs of {@code tradeoff account} into accounting events. All noise
 * parameters are for sensitivity 1.
 */
final class MechanismSpecs {

  /** The spec names and keys, for help texts. */
  static final String SYNTAX =
      "pure:epsilon=E | approx:epsilon=E,delta=D | laplace:scale=B | gaussian:sigma=S"
          + " | discrete-laplace:scale=T | discrete-gaussian:sigma=S"
          + " | randomized-response:epsilon=E[,k=K] | subsampled-gaussian:sigma=S,q=Q"
          + " | gdp:mu=M | zcdp:rho=R";

  private MechanismSpecs() {}

  static DpEvent parse(String text) {
    Spec spec = Spec.parse("--mechanism", text);
    switch (spec.name()) {
      case "pure":
        spec.allowOnly(Set.of("epsilon"));
        return new GuaranteeEvent(new PureDp(spec.number("epsilon")));
      case "approx":
        spec.allowOnly(Set.of("epsilon", "delta"));
        return new GuaranteeEvent(new ApproxDp(spec.number("epsilon"), spec.number("delta")));
      case "laplace":
        spec.allowOnly(Set.of("scale"));
        return new LaplaceEvent(spec.number("scale"));
      case "gaussian":
        spec.allowOnly(Set.of("sigma"));
        return new GaussianEvent(spec.number("sigma"));
      case "discrete-laplace":
        spec.allowOnly(Set.of("scale"));
        return new DiscreteLaplaceEvent(spec.number("scale"));
      case "discrete-gaussian":
        spec.allowOnly(Set.of("sigma"));
        return new DiscreteGaussianEvent(spec.number("sigma"));
      case "randomized-response":
        spec.allowOnly(Set.of("epsilon", "k"));
        return new RandomizedResponseEvent(spec.number("epsilon"), spec.integer("k", 2));
      case "subsampled-gaussian":
        spec.allowOnly(Set.of("sigma", "q"));
        double q = Require.probability("q", spec.number("q"));
        return new PoissonSampledEvent(q, new GaussianEvent(spec.number("sigma")));
      case "gdp":
        spec.allowOnly(Set.of("mu"));
        return new GuaranteeEvent(new GaussianDp(spec.number("mu")));
      case "zcdp":
        spec.allowOnly(Set.of("rho"));
        return new GuaranteeEvent(new ZeroConcentratedDp(spec.number("rho")));
      default:
        throw new IllegalArgumentException(
            "--mechanism must be one of " + SYNTAX + ", but was '" + text + "'");
    }
  }
}
