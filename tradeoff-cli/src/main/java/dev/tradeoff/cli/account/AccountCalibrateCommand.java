package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.calibration.LaplaceCalibration;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Report;
import dev.tradeoff.cli.options.PrivacyParameters;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tradeoff account calibrate}: the smallest noise that meets a target (ε, δ). */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = {
      "The smallest noise (rounded up) such that --count releases meet the target (epsilon, delta).",
      "gaussian: --method analytic (one release, Balle-Wang 2018) or any accountant (pld, rdp,"
          + " zcdp, gdp).",
      "laplace: --method basic (pure composition, delta unused) or pld / rdp / optimal.",
      "subsampled-gaussian:q=Q: DP-SGD with Poisson sampling rate Q (add/remove-one); prints the"
          + " noise multiplier sigma, by --method pld (default) or rdp, within 0.5% of the"
          + " smallest: sigmaRefused (at least 0.995 sigma) misses the target; certified: true"
          + " when it misses it by the lower end of the PLD bracket, so no analysis can do better.",
      "batch-gaussian:n=N,batch=B: DP-SGD with batches of B drawn without replacement from N,"
          + " --count steps, --neighbouring replace; --method pld (default) or rdp.",
      "shuffled-gaussian:batches=T: shuffled epochs of T batches, --count epochs, --neighbouring"
          + " replace; no amplification (docs/accounting.md); --method pld (default) or rdp."
    })
final class AccountCalibrateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--mechanism",
      required = true,
      description = "gaussian, laplace, subsampled-gaussian:q=Q, batch-gaussian:n=N,batch=B or"
          + " shuffled-gaussian:batches=T.")
  String mechanism;

  @Option(names = "--count", defaultValue = "1", description = "Number of releases (default 1).")
  int count;

  @Option(names = "--target-epsilon", required = true, paramLabel = "E",
      converter = PrivacyParameters.Epsilon.class)
  double targetEpsilon;

  @Option(names = "--target-delta", paramLabel = "D", converter = PrivacyParameters.Delta.class,
      description = "Required for gaussian.")
  Double targetDelta;

  @Option(names = "--sensitivity", defaultValue = "1", description = "Query sensitivity (default 1).")
  double sensitivity;

  @Option(
      names = "--method",
      description = "gaussian: analytic (default for --count 1), pld (default), rdp, zcdp, gdp;"
          + " laplace: basic (default), pld, rdp, optimal, kairouz.")
  String method;

  @Mixin NeighbouringFlag neighbouring;

  @Option(
      names = "--discretization",
      paramLabel = "INTERVAL",
      description = "pld only: the finest loss grid spacing, in [1e-7, 1] (default "
          + PldAccountant.DEFAULT_INTERVAL + ", coarsened beyond "
          + PldAccountant.DEFAULT_MAX_POINTS + " composed grid points; when given, beyond "
          + PldAccountant.MAX_COMPOSED_POINTS + ").")
  Double discretization;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    Inputs.count("--count", count, 1, AccountComposeCommand.MAX_COUNT);
    Inputs.sensitivity("--sensitivity", sensitivity);
    if (targetDelta != null) {
      // checked even where the method does not use it: a bad value is never echoed as accepted
      Inputs.delta("--target-delta", targetDelta);
    }
    Neighbouring relation = neighbouring.relation;
    Report report = new Report().put("mechanism", mechanism);
    switch (mechanism) {
      case "gaussian" -> {
        if (targetDelta == null) {
          throw new IllegalArgumentException("--target-delta is required for the gaussian mechanism");
        }
        double delta = targetDelta;
        String m = method != null ? method : count == 1 ? "analytic" : "pld";
        double sigma;
        if (m.equals("analytic")) {
          noDiscretization(m);
          if (count != 1) {
            throw new IllegalArgumentException(
                "--method analytic calibrates one release, but --count was " + count + "; use pld or rdp");
          }
          sigma = AnalyticGaussian.sigma(targetEpsilon, delta, sensitivity);
        } else {
          GaussianCalibrator calibrator =
              new GaussianCalibrator(accountant(AccountingMethod.parse(m)));
          sigma = sensitivity * calibrator.sigma(count, targetEpsilon, delta, relation);
        }
        report.put("method", m).put("sigma", sigma);
      }
      case "laplace" -> {
        String m = method != null ? method : "basic";
        double scale;
        if (m.equals("basic")) {
          noDiscretization(m);
          scale = LaplaceCalibration.scale(targetEpsilon, count, sensitivity);
        } else {
          if (targetDelta == null) {
            throw new IllegalArgumentException("--target-delta is required with --method " + m);
          }
          double delta = targetDelta;
          GaussianCalibrator calibrator =
              new GaussianCalibrator(accountant(AccountingMethod.parse(m)));
          scale =
              sensitivity
                  * calibrator.sigma(
                      b -> new SelfComposedEvent(new LaplaceEvent(b), count), targetEpsilon, delta, relation);
        }
        report.put("method", m).put("scale", scale);
      }
      default -> {
        if (mechanism.startsWith("batch-gaussian") || mechanism.startsWith("shuffled-gaussian")) {
          batchesWithoutReplacement(relation, report);
          break;
        }
        if (!mechanism.startsWith("subsampled-gaussian")) {
          throw new IllegalArgumentException(
              "--mechanism must be gaussian, laplace, subsampled-gaussian:q=Q,"
                  + " batch-gaussian:n=N,batch=B or shuffled-gaussian:batches=T, but was '"
                  + mechanism + "'");
        }
        dev.tradeoff.cli.io.Spec parsed = dev.tradeoff.cli.io.Spec.parse("--mechanism", mechanism);
        parsed.allowOnly(Set.of("q"));
        double q = Inputs.rate(parsed.flag("q"), parsed.number("q"));
        if (targetDelta == null) {
          throw new IllegalArgumentException("--target-delta is required for subsampled-gaussian");
        }
        double delta = targetDelta;
        if (relation != Neighbouring.ADD_OR_REMOVE_ONE) {
          throw new IllegalArgumentException(
              "--neighbouring must be add-remove for subsampled-gaussian (Poisson sampling), but was "
                  + NeighbouringFlag.name(relation));
        }
        String m = method != null ? method : "pld";
        if (!m.equals("pld") && !m.equals("rdp")) {
          throw new IllegalArgumentException(
              "--method must be pld or rdp for subsampled-gaussian, but was '" + m + "'");
        }
        GaussianCalibrator calibrator =
            new GaussianCalibrator(accountant(AccountingMethod.parse(m)));
        GaussianCalibrator.Calibration c =
            calibrator.poissonSampled(q, count, targetEpsilon, delta);
        report.put("method", m).put("q", q).put("sigma", c.sigma())
            .putRoundedDown("sigmaRefused", c.below())
            .put("certified", c.certified(targetEpsilon));
      }
    }
    report
        .put("count", count)
        .put("targetEpsilon", targetEpsilon)
        .put("targetDelta", targetDelta)
        .put("sensitivity", sensitivity);
    report.print(spec.commandLine().getOut(), json);
    return 0;
  }

  /**
   * DP-SGD with fixed-size batches (batch-gaussian:n=N,batch=B, --count steps) or shuffled epochs
   * (shuffled-gaussian:batches=T, --count epochs), pld by default, under
   * replace-one neighbouring: the noise multiplier within 0.5% of the smallest that meets the
   * target per the method.
   */
  private void batchesWithoutReplacement(Neighbouring relation, Report report) {
    dev.tradeoff.cli.io.Spec parsed = dev.tradeoff.cli.io.Spec.parse("--mechanism", mechanism);
    boolean shuffled = parsed.name().equals("shuffled-gaussian");
    parsed.allowOnly(shuffled ? Set.of("batches") : Set.of("n", "batch"));
    if (targetDelta == null) {
      throw new IllegalArgumentException("--target-delta is required for " + parsed.name());
    }
    double delta = targetDelta;
    if (relation != Neighbouring.REPLACE_ONE) {
      throw new IllegalArgumentException("--neighbouring must be replace for " + parsed.name()
          + " (fixed-size batches are analysed under replace-one), but was "
          + NeighbouringFlag.name(relation));
    }
    java.util.function.DoubleFunction<DpEvent> step;
    if (shuffled) {
      int batches = Inputs.count(parsed.flag("batches"), parsed.integer("batches"), 1,
          Integer.MAX_VALUE);
      step = s -> new ShuffledEpochsEvent(new GaussianEvent(s), count, batches);
    } else {
      int n = Inputs.count(parsed.flag("n"), parsed.integer("n"), 1, Integer.MAX_VALUE);
      int batch = Inputs.count(parsed.flag("batch"), parsed.integer("batch"), 1, n);
      step = s -> new SelfComposedEvent(
          new SampledWithoutReplacementEvent(n, batch, new GaussianEvent(s)), count);
    }
    String m = method != null ? method : "pld";
    GaussianCalibrator.Calibration c = new GaussianCalibrator(accountant(AccountingMethod.parse(m)))
        .calibrate(step, targetEpsilon, delta, relation, GaussianCalibrator.DP_SGD_TOLERANCE);
    report.put("method", m).put("sigma", c.sigma()).putRoundedDown("sigmaRefused", c.below())
        .put("certified", c.certified(targetEpsilon));
  }

  private void noDiscretization(String m) {
    if (discretization != null) {
      throw new IllegalArgumentException(
          "--discretization applies to --method pld only, but method was " + m);
    }
  }

  private Accountant accountant(AccountingMethod m) {
    return AccountComposeCommand.pldAccountant(m, discretization);
  }
}
