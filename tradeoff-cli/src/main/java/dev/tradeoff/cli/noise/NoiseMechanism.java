package dev.tradeoff.cli.noise;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Spec;
import dev.tradeoff.cli.options.Parsed;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code --mechanism} of {@code tradeoff noise}, converted when the arguments are parsed
 * ({@link Converter}): its syntax, name, keys and the ranges that hold whatever {@code
 * --sensitivity} is. What depends on {@code --sensitivity} too is checked by {@link NoiseRequest}.
 */
sealed interface NoiseMechanism {

  /** The spec syntax, for refusals and help. */
  String SYNTAX = "laplace:epsilon=E | gaussian:epsilon=E,delta=D | discrete-laplace:epsilon=E"
      + " | discrete-gaussian:sigma=S | discrete-gaussian:rho=R";

  /** Whether it releases integers (and so needs an integer value and sensitivity). */
  default boolean discrete() {
    return getClass().getSimpleName().startsWith("Discrete");
  }

  /** A mechanism calibrated by ε for a given sensitivity. */
  sealed interface ByEpsilon extends NoiseMechanism {
    double epsilon();

    /** The spec's name, the record's in lower case with hyphens ({@code discrete-laplace}). */
    default String name() {
      return getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1-$2")
          .toLowerCase(Locale.ROOT);
    }
  }

  /** The snapped Laplace mechanism. */
  record Laplace(double epsilon) implements ByEpsilon {}

  /** The snapped Gaussian mechanism, analytically calibrated to (ε, δ). */
  record Gaussian(double epsilon, double delta) implements ByEpsilon {}

  /** The discrete Laplace mechanism. */
  record DiscreteLaplace(double epsilon) implements ByEpsilon {}

  /** The discrete Gaussian mechanism with noise scale σ. */
  record DiscreteGaussian(double sigma) implements NoiseMechanism {}

  /** The discrete Gaussian mechanism calibrated to ρ-zCDP: σ = sensitivity / sqrt(2ρ). */
  record DiscreteGaussianZcdp(double rho) implements NoiseMechanism {}

  /** {@code @Option(converter = NoiseMechanism.Converter.class)}; a refusal is its one line. */
  final class Converter extends Parsed<NoiseMechanism> {
    Converter() {
      super(Converter::parse);
    }

    static NoiseMechanism parse(String text) {
      Spec spec = Spec.parse("--mechanism", text);
      switch (spec.name()) {
        case "laplace":
          spec.allowOnly(Set.of("epsilon"));
          return new Laplace(epsilon(spec));
        case "gaussian":
          spec.allowOnly(Set.of("epsilon", "delta"));
          return new Gaussian(epsilon(spec), Inputs.delta(spec.flag("delta"),
              spec.number("delta")));
        case "discrete-laplace":
          spec.allowOnly(Set.of("epsilon"));
          return new DiscreteLaplace(epsilon(spec));
        case "discrete-gaussian":
          spec.allowOnly(Set.of("sigma", "rho"));
          if (spec.has("sigma") == spec.has("rho")) {
            throw new IllegalArgumentException("--mechanism discrete-gaussian needs exactly one"
                + " of sigma=S or rho=R, but was '" + text + "'");
          }
          return spec.has("sigma")
              ? new DiscreteGaussian(Inputs.noise(spec.flag("sigma"), spec.number("sigma")))
              : new DiscreteGaussianZcdp(Inputs.rangeAbove(spec.flag("rho"),
                  spec.number("rho"), 0, Inputs.MAX_RHO, "a zCDP rho"));
        default:
          throw new IllegalArgumentException("--mechanism must be one of " + SYNTAX
              + ", but was '" + text + "'");
      }
    }

    private static double epsilon(Spec spec) {
      return Inputs.epsilon(spec.flag("epsilon"), spec.number("epsilon"));
    }
  }
}
