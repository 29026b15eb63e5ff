package dev.tradeoff.cli.noise;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.mechanisms.gaussian.DiscreteGaussianMechanism;
import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.DiscreteLaplaceMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff noise}: release a value with calibrated, floating-point-safe noise from
 * {@code tradeoff-mechanisms}. Randomness is {@code SecureRandom} unless {@code --seed} asks for a
 * reproducible (and therefore not private) run.
 */
@Command(
    name = "noise",
    mixinStandardHelpOptions = true,
    description = {
      "Add calibrated noise to a value (secure randomness by default).",
      "Mechanisms: " + NoiseCommand.SYNTAX
    })
public final class NoiseCommand implements Runnable {

  static final String SYNTAX =
      "laplace:epsilon=E | gaussian:epsilon=E,delta=D | discrete-laplace:epsilon=E"
          + " | discrete-gaussian:sigma=S | discrete-gaussian:rho=R";

  private static final int MAX_COUNT = 1_000_000;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--mechanism", required = true, description = "The mechanism: " + SYNTAX)
  String mechanism;

  @Option(names = "--value", required = true, description = "The true value f(D).")
  double value;

  @Option(
      names = "--sensitivity",
      defaultValue = "1",
      description = "Sensitivity of f (L1 for Laplace, L2 for Gaussian; an integer for discrete). Default 1.")
  double sensitivity;

  @Option(names = "--count", defaultValue = "1", description = "Number of independent releases. Default 1.")
  int count;

  @Option(
      names = "--seed",
      description = "Use reproducible seeded randomness (for tests and demos; NOT private).")
  Long seed;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  /** A configured mechanism: what it is, what it guarantees, and one release. */
  private record Noise(String description, PrivacyGuarantee guarantee, Function<RandomGenerator, Number> draw) {}

  @Override
  public void run() {
    Inputs.magnitude("--value", value);
    Inputs.sensitivity("--sensitivity", sensitivity);
    Inputs.count("--count", count, 1, MAX_COUNT);
    Noise noise = configure();
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    List<Number> outputs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Number output = noise.draw().apply(random);
      Inputs.released("the noisy value", output.doubleValue());
      outputs.add(output);
    }
    PrintWriter out = spec.commandLine().getOut();
    String randomness = seed == null ? "secure" : "seeded(" + seed + "), NOT private";
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("mechanism", mechanism);
      doc.put("noise", noise.description());
      doc.put("guarantee", describe(noise.guarantee()));
      doc.put("value", value);
      doc.put("sensitivity", sensitivity);
      doc.put("randomness", randomness);
      doc.put("seeded", seed != null);
      doc.put("outputs", outputs);
      out.println(Json.write(doc));
    } else {
      out.printf("mechanism    %s%n", mechanism);
      out.printf("noise        %s%n", noise.description());
      out.printf("guarantee    %s%n", text(noise.guarantee()));
      out.printf("value        %s (sensitivity %s)%n", value, sensitivity);
      out.printf("randomness   %s%n", randomness);
      out.println("outputs");
      for (Number n : outputs) {
        out.println("  " + n);
      }
    }
    out.flush();
  }

  private Noise configure() {
    dev.tradeoff.cli.io.Spec parsed = dev.tradeoff.cli.io.Spec.parse("--mechanism", mechanism);
    switch (parsed.name()) {
      case "laplace": {
        parsed.allowOnly(Set.of("epsilon"));
        LaplaceMechanism m = LaplaceMechanism.of(epsilon(parsed), sensitivity);
        return new Noise(
            "snapped Laplace, scale " + m.scale() + ", granularity " + m.noise().grid().granularity(),
            m.guarantee(),
            r -> m.release(value, r));
      }
      case "gaussian": {
        parsed.allowOnly(Set.of("epsilon", "delta"));
        GaussianMechanism m =
            GaussianMechanism.of(epsilon(parsed),
                Inputs.delta(parsed.flag("delta"), parsed.number("delta")), sensitivity);
        return new Noise(
            "snapped discrete Gaussian (analytic calibration), sigma "
                + m.sigma()
                + ", granularity "
                + m.noise().grid().granularity(),
            m.guarantee(),
            r -> m.release(value, r));
      }
      case "discrete-laplace": {
        parsed.allowOnly(Set.of("epsilon"));
        long v = integer("--value", value);
        DiscreteLaplaceMechanism m =
            DiscreteLaplaceMechanism.of(epsilon(parsed), integer("--sensitivity", sensitivity));
        return new Noise(
            "discrete Laplace, scale " + m.noise().scale().doubleValue(),
            m.guarantee(),
            r -> m.release(v, r));
      }
      case "discrete-gaussian": {
        parsed.allowOnly(Set.of("sigma", "rho"));
        long v = integer("--value", value);
        long s = integer("--sensitivity", sensitivity);
        if (parsed.has("sigma") == parsed.has("rho")) {
          throw new IllegalArgumentException(
              "discrete-gaussian spec needs exactly one of sigma=S or rho=R, but was '" + mechanism + "'");
        }
        DiscreteGaussianMechanism m =
            parsed.has("sigma")
                ? DiscreteGaussianMechanism.of(Inputs.noise(parsed.flag("sigma"), parsed.number("sigma")), s)
                : DiscreteGaussianMechanism.forZcdp(Inputs.range(parsed.flag("rho"),
                    parsed.number("rho"), 0.5 * Math.pow(s / Inputs.MAX_NOISE, 2),
                    Inputs.MAX_RHO, "a zCDP rho: smaller needs sigma = "
                        + "--sensitivity / sqrt(2 rho) above " + Inputs.fmt(Inputs.MAX_NOISE)), s);
        return new Noise("discrete Gaussian, sigma " + m.sigma(), m.guarantee(), r -> m.release(v, r));
      }
      default:
        throw new IllegalArgumentException(
            "--mechanism must be one of " + SYNTAX + ", but was '" + mechanism + "'");
    }
  }

  /**
   * The spec's ε, checked with the noise scale it implies: {@code --sensitivity / ε} must stay
   * below {@link Inputs#MAX_MAGNITUDE} so the noise, and the value plus noise, stay finite (and
   * within a long for the discrete mechanisms).
   */
  private double epsilon(dev.tradeoff.cli.io.Spec parsed) {
    double epsilon = Inputs.epsilon(parsed.flag("epsilon"), parsed.number("epsilon"));
    if (!(sensitivity / epsilon <= Inputs.MAX_MAGNITUDE)) {
      throw new IllegalArgumentException("--sensitivity / " + parsed.flag("epsilon")
          + " (the noise scale) must be <= " + Inputs.MAX_MAGNITUDE + ", but was "
          + sensitivity / epsilon);
    }
    return epsilon;
  }

  private static long integer(String name, double x) {
    if (x != Math.rint(x) || Math.abs(x) >= 0x1.0p62) {
      throw new IllegalArgumentException(
          name + " must be an integer for a discrete mechanism, but was " + x);
    }
    return (long) x;
  }

  private static String text(PrivacyGuarantee g) {
    if (g instanceof PureDp p) {
      return p.epsilon() + "-DP";
    } else if (g instanceof ApproxDp a) {
      return "(" + a.epsilon() + ", " + a.delta() + ")-DP";
    } else if (g instanceof ZeroConcentratedDp z) {
      return z.rho() + "-zCDP";
    }
    return g.toString();
  }

  private static Map<String, Object> describe(PrivacyGuarantee g) {
    Map<String, Object> d = new LinkedHashMap<>();
    if (g instanceof PureDp p) {
      d.put("type", "pure");
      d.put("epsilon", p.epsilon());
    } else if (g instanceof ApproxDp a) {
      d.put("type", "approx");
      d.put("epsilon", a.epsilon());
      d.put("delta", a.delta());
    } else if (g instanceof ZeroConcentratedDp z) {
      d.put("type", "zcdp");
      d.put("rho", z.rho());
    } else {
      d.put("type", g.getClass().getSimpleName());
    }
    return d;
  }
}
