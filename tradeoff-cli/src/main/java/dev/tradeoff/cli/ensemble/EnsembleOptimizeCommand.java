package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import dev.tradeoff.ensemble.utility.Prior;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble optimize}: the LP-optimal γ of [DaRRM24, Section 5] with its exact privacy
 * certificate and the errors of it and of every baseline.
 */
@Command(name = "optimize", mixinStandardHelpOptions = true,
    description = "Optimise DaRRM's noise function gamma (LP with exact privacy cuts).")
public final class EnsembleOptimizeCommand implements Runnable {

  @Spec CommandSpec spec;
  @Mixin EnsembleSetting options;

  @Option(names = "--objective", defaultValue = "surrogate",
      description = "surrogate (p_i i.i.d. on [0.5, 1) with mean --prior-mean) or expected-error.")
  String objective;

  @Option(names = "--prior-mean", defaultValue = "0.75",
      description = "Mean p-bar in [0.5, 1] of the surrogate objective (default 0.75).")
  double priorMean;

  @Option(names = "--prior", defaultValue = "uniform",
      description = "expected-error prior: uniform (U[0,1]), polarized (U([0,0.3] u [0.7,1])) or"
          + " a CSV file of observed p values.")
  String prior;

  @Option(names = "--samples", defaultValue = "2000",
      description = "Sample-average draws for expected-error (default 2000).")
  int samples;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the sample-average draws.")
  long seed;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public void run() {
    DarrmSetting setting = options.setting();
    Inputs.range("--prior-mean", priorMean, 0.5, 1, "the mean teacher accuracy p-bar");
    Inputs.count("--samples", samples, 1, 1_000_000);
    Objective obj = objective(objective, priorMean, prior, samples, seed);
    Progress progress = Progress.of(spec);
    progress.phase("optimizing gamma (LP with exact privacy cuts)");
    GammaOptimizer optimizer = new GammaOptimizer(setting);
    GammaOptimizer.Result r = optimizer.optimize(obj, p -> progress.detail(String.format(
        Locale.ROOT, "round %d, %d cuts, max cost/bound - 1 = %.2e", p.round(), p.constraints(),
        Math.max(0, p.maxPrivacyCost() - p.bound()) / p.bound())));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("gamma", r.gamma().values());
    out.put("certificate", EnsembleJson.certificate(r.certificate()));
    out.put("errors", errors(setting, optimizer.verifier(), r.gamma(), obj, seed));
    out.put("setting", EnsembleJson.setting(setting, r.certificate()));
    out.put("objective", describe(obj));
    out.put("scale", r.scale());
    out.put("rounds", r.rounds());
    out.put("constraints", r.constraints());
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
    } else {
      o.printf("gamma(0..%d):%n", setting.teachers());
      double[] g = r.gamma().values();
      for (int l = 0; l < g.length; l++) {
        o.printf("  %3d  %.6f%n", l, g[l]);
      }
      o.printf("max privacy cost %.12g <= bound %.12g (slack %.3g): proven %s%n",
          r.certificate().maxPrivacyCost(), r.certificate().bound(), r.certificate().slack(),
          EnsembleJson.guarantee(r.certificate().certifiedGuarantee()));
      @SuppressWarnings("unchecked")
      Map<String, Object> errors = (Map<String, Object>) out.get("errors");
      errors.forEach((k, v) -> {
        if (v instanceof Map<?, ?> constants) {
          constants.forEach((name, entry) -> {
            Map<?, ?> e = (Map<?, ?>) entry;
            o.printf("error %-20s %s (gamma = %s)%n", k + " " + name,
                Numbers.shown(e.get("error")), Numbers.shown(e.get("constant")));
          });
        } else {
          o.printf("error %-20s %s%n", k, Numbers.shown(v));
        }
      });
      o.flush();
    }
  }

  static Objective objective(String name, double priorMean, String prior, int samples,
      long seed) {
    return switch (name) {
      case "surrogate" -> new Objective.Surrogate(priorMean);
      case "expected-error" -> new Objective.ExpectedError(prior(prior), samples, seed);
      default -> throw new IllegalArgumentException(
          "objective must be surrogate or expected-error, but was " + name);
    };
  }

  static Prior prior(String spec) {
    return switch (spec) {
      case "uniform" -> new Prior.Uniform(0, 1);
      case "polarized" -> new Prior.Polarized();
      default -> new Prior.Empirical(readValues(Path.of(spec)));
    };
  }

  private static double[] readValues(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("--prior must be uniform, polarized or a CSV file, but "
          + path + " does not exist");
    }
    Inputs.inputFile("--prior", path, EnsembleJson.MAX_FILE_BYTES);
    List<Double> values = new ArrayList<>();
    try {
      CsvRecords.read(path, "prior file " + path, (cells, line) -> {
        for (String c : cells) {
          if (c.isEmpty()) {
            continue;
          }
          try {
            values.add(Require.probability("prior value on line " + line,
                Double.parseDouble(c)));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("prior file " + path + " line " + line + ": '"
                + Shown.value(c) + "' is not a number");
          }
        }
      });
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read prior file " + path);
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("prior file " + path + " holds no values");
    }
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static Map<String, Object> describe(Objective obj) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (obj instanceof Objective.Surrogate s) {
      m.put("kind", "surrogate");
      m.put("priorMean", s.priorMean());
    } else if (obj instanceof Objective.ExpectedError e) {
      m.put("kind", "expected-error");
      m.put("prior", e.prior().getClass().getSimpleName());
      m.put("samples", e.samples());
    }
    return m;
  }

  /**
   * The exact expected error under the objective's prior (surrogate) or a Monte-Carlo estimate on
   * a fresh sample (expected-error), for γ_opt and every certified baseline; randomized response
   * with Lemma A.1's constant and with the largest constant the verifier certifies.
   */
  static Map<String, Object> errors(DarrmSetting setting, PrivacyVerifier verifier,
      NoiseFunction optimized, Objective obj, long seed) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("optimized", error(optimized, obj, seed));
    m.put("subsampling", error(Baseline.SUBSAMPLING.certified(verifier).gamma(), obj, seed));
    m.put("doubleSubsampling",
        error(Baseline.DOUBLE_SUBSAMPLING.certified(verifier).gamma(), obj, seed));
    Map<String, Object> rr = new LinkedHashMap<>();
    for (Baseline b : List.of(Baseline.RANDOMIZED_RESPONSE, Baseline.LARGEST_CERTIFIED_CONSTANT)) {
      NoiseFunction constant = b.certified(verifier).gamma();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("constant", constant.at(0));
      entry.put("error", error(constant, obj, seed));
      rr.put(b == Baseline.RANDOMIZED_RESPONSE ? "lemmaA1" : "largestCertified", entry);
    }
    m.put("randomizedResponse", rr);
    return m;
  }

  static double error(NoiseFunction gamma, Objective obj, long seed) {
    if (obj instanceof Objective.Surrogate s) {
      return DarrmError.surrogate(gamma, s.priorMean());
    }
    Objective.ExpectedError e = (Objective.ExpectedError) obj;
    // Common random numbers, independent of the optimiser's sample.
    return DarrmError.monteCarlo(gamma, e.prior(), 20_000, new SplittableRandom(seed + 1))
        .mean();
  }

  /** A one-line progress bar on standard error. */
}
