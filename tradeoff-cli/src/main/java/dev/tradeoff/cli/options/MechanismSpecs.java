package dev.tradeoff.cli.options;

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
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Spec;
import java.util.Set;

/**
 * Turns the {@code --mechanism} specs of {@code tradeoff account} into accounting events. All noise
 * parameters are for sensitivity 1.
 */
public final class MechanismSpecs {

  /** The spec names and keys, for help texts. */
  public static final String SYNTAX =
      "pure:epsilon=E | approx:epsilon=E,delta=D | laplace:scale=B | gaussian:sigma=S"
          + " | discrete-laplace:scale=T | discrete-gaussian:sigma=S"
          + " | randomized-response:epsilon=E[,k=K] | subsampled-gaussian:sigma=S,q=Q"
          + " | batch-gaussian:sigma=S,n=N,batch=B | shuffled-gaussian:sigma=S,batches=T"
          + " | gdp:mu=M | zcdp:rho=R";

  /** Largest number of categories of randomized response. */
  public static final int MAX_CATEGORIES = 1_000_000;

  private MechanismSpecs() {}

  /**
   * A {@code --mechanism} as given and the event it names, converted once when the arguments are
   * parsed ({@link Converter}).
   */
  public record Mechanism(String text, DpEvent event) {}

  /**
   * {@code @Option(converter = MechanismSpecs.Converter.class)}: the spec parsed and its
   * parameters checked ({@link #parse}); a refusal is its one line.
   */
  public static final class Converter extends Parsed<Mechanism> {
    public Converter() {
      super(text -> new Mechanism(text, parse(text)));
    }
  }

  public static DpEvent parse(String text) {
    Spec spec = Spec.parse("--mechanism", text);
    switch (spec.name()) {
      case "pure":
        spec.allowOnly(Set.of("epsilon"));
        return new GuaranteeEvent(new PureDp(epsilon(spec)));
      case "approx":
        spec.allowOnly(Set.of("epsilon", "delta"));
        return new GuaranteeEvent(new ApproxDp(
            Inputs.epsilonOrZero(spec.flag("epsilon"), spec.number("epsilon")),
            Inputs.deltaOrZero(spec.flag("delta"), spec.number("delta"))));
      case "laplace":
        spec.allowOnly(Set.of("scale"));
        return new LaplaceEvent(noise(spec, "scale"));
      case "gaussian":
        spec.allowOnly(Set.of("sigma"));
        return new GaussianEvent(noise(spec, "sigma"));
      case "discrete-laplace":
        spec.allowOnly(Set.of("scale"));
        return new DiscreteLaplaceEvent(noise(spec, "scale"));
      case "discrete-gaussian":
        spec.allowOnly(Set.of("sigma"));
        return new DiscreteGaussianEvent(noise(spec, "sigma"));
      case "randomized-response":
        spec.allowOnly(Set.of("epsilon", "k"));
        return new RandomizedResponseEvent(epsilon(spec),
            Inputs.count(spec.flag("k"), spec.integer("k", 2), 2, MAX_CATEGORIES));
      case "subsampled-gaussian":
        spec.allowOnly(Set.of("sigma", "q"));
        double q = Inputs.rate(spec.flag("q"), spec.number("q"));
        return new PoissonSampledEvent(q, new GaussianEvent(noise(spec, "sigma")));
      case "batch-gaussian":
        // A batch of B records drawn without replacement from N (replace-one neighbouring).
        spec.allowOnly(Set.of("sigma", "n", "batch"));
        int n = Inputs.count(spec.flag("n"), spec.integer("n"), 1, Integer.MAX_VALUE);
        int batch = Inputs.count(spec.flag("batch"), spec.integer("batch"), 1, n);
        return new SampledWithoutReplacementEvent(n, batch, new GaussianEvent(noise(spec, "sigma")));
      case "shuffled-gaussian":
        // One shuffled epoch of T batches (replace-one neighbouring); --count is the epochs.
        spec.allowOnly(Set.of("sigma", "batches"));
        return new ShuffledEpochsEvent(new GaussianEvent(noise(spec, "sigma")), 1,
            Inputs.count(spec.flag("batches"), spec.integer("batches"), 1, Integer.MAX_VALUE));
      case "gdp":
        spec.allowOnly(Set.of("mu"));
        return new GuaranteeEvent(new GaussianDp(Inputs.range(spec.flag("mu"),
            spec.number("mu"), 1 / Inputs.MAX_NOISE, 1 / Inputs.MIN_NOISE,
            "a GDP mu, 1/sigma of a Gaussian of a noise scale in the allowed range")));
      case "zcdp":
        spec.allowOnly(Set.of("rho"));
        double maxRho = 0.5 / (Inputs.MIN_NOISE * Inputs.MIN_NOISE);
        double minRho = 0.5 / (Inputs.MAX_NOISE * Inputs.MAX_NOISE);
        return new GuaranteeEvent(new ZeroConcentratedDp(Inputs.range(spec.flag("rho"),
            spec.number("rho"), minRho, maxRho,
            "a zCDP rho, 1/(2 sigma^2) of a Gaussian of a noise scale in the allowed range")));
      default:
        throw new IllegalArgumentException(
            "--mechanism must be one of " + SYNTAX + ", but was '" + text + "'");
    }
  }

  private static double epsilon(Spec spec) {
    return Inputs.epsilon(spec.flag("epsilon"), spec.number("epsilon"));
  }

  private static double noise(Spec spec, String key) {
    return Inputs.noise(spec.flag(key), spec.number(key));
  }
}
