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
      "Mechanisms: " + NoiseMechanism.SYNTAX
    })
public final class NoiseCommand implements Runnable {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--mechanism", required = true, converter = NoiseMechanism.Converter.class,
      description = "The mechanism: " + NoiseMechanism.SYNTAX)
  NoiseMechanism mechanism;

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
    NoiseRequest request = new NoiseRequest(mechanism, value, sensitivity, count);
    Noise noise = configure(request);
    RandomGenerator random = seed == null ? Randomness.secure() : Randomness.seeded(seed);
    List<Number> outputs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Number output = noise.draw().apply(random);
      Inputs.released("the noisy value", output.doubleValue());
      outputs.add(output);
    }
    PrintWriter out = spec.commandLine().getOut();
    String mechanismText = spec.findOption("--mechanism").stringValues().get(0);
    String randomness = seed == null ? "secure" : "seeded(" + seed + "), NOT private";
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("mechanism", mechanismText);
      doc.put("noise", noise.description());
      doc.put("guarantee", describe(noise.guarantee()));
      doc.put("value", value);
      doc.put("sensitivity", sensitivity);
      doc.put("randomness", randomness);
      doc.put("seeded", seed != null);
      doc.put("outputs", outputs);
      out.println(Json.write(doc));
    } else {
      out.printf("mechanism    %s%n", mechanismText);
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

  /** The library mechanism of a checked request. */
  private static Noise configure(NoiseRequest r) {
    NoiseMechanism mechanism = r.mechanism();
    if (mechanism instanceof NoiseMechanism.Laplace l) {
      LaplaceMechanism m = LaplaceMechanism.of(l.epsilon(), r.sensitivity());
      return new Noise(
          "snapped Laplace, scale " + m.scale() + ", granularity " + m.noise().grid().granularity(),
          m.guarantee(),
          g -> m.release(r.value(), g));
    }
    if (mechanism instanceof NoiseMechanism.Gaussian gauss) {
      GaussianMechanism m = GaussianMechanism.of(gauss.epsilon(), gauss.delta(), r.sensitivity());
      return new Noise(
          "snapped discrete Gaussian (analytic calibration), sigma "
              + m.sigma()
              + ", granularity "
              + m.noise().grid().granularity(),
          m.guarantee(),
          g -> m.release(r.value(), g));
    }
    long v = r.integerValue();
    if (mechanism instanceof NoiseMechanism.DiscreteLaplace l) {
      DiscreteLaplaceMechanism m = DiscreteLaplaceMechanism.of(l.epsilon(), r.integerSensitivity());
      return new Noise(
          "discrete Laplace, scale " + m.noise().scale().doubleValue(),
          m.guarantee(),
          g -> m.release(v, g));
    }
    DiscreteGaussianMechanism m = mechanism instanceof NoiseMechanism.DiscreteGaussian d
        ? DiscreteGaussianMechanism.of(d.sigma(), r.integerSensitivity())
        : DiscreteGaussianMechanism.forZcdp(((NoiseMechanism.DiscreteGaussianZcdp) mechanism).rho(),
            r.integerSensitivity());
    return new Noise("discrete Gaussian, sigma " + m.sigma(), m.guarantee(), g -> m.release(v, g));
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
