package dev.tradeoff.cli;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.calibration.GaussianCalibrator;
import dev.tradeoff.accounting.calibration.LaplaceCalibration;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.methods.Accountants;
import dev.tradeoff.accounting.pld.PldAccountant;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
          + " noise multiplier sigma, by --method pld (default) or rdp."
    })
final class AccountCalibrateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--mechanism",
      required = true,
      description = "gaussian, laplace or subsampled-gaussian:q=Q.")
  String mechanism;

  @Option(names = "--count", defaultValue = "1", description = "Number of releases (default 1).")
  int count;

  @Option(names = "--target-epsilon", required = true, paramLabel = "E")
  double targetEpsilon;

  @Option(names = "--target-delta", paramLabel = "D", description = "Required for gaussian.")
  Double targetDelta;

  @Option(names = "--sensitivity", defaultValue = "1", description = "Query sensitivity (default 1).")
  double sensitivity;

  @Option(
      names = "--method",
      description = "gaussian: analytic (default for --count 1), pld (default), rdp, zcdp, gdp;"
          + " laplace: basic (default), pld, rdp, optimal, kairouz.")
  String method;

  @Option(
      names = "--neighbouring",
      defaultValue = "add-remove",
      description = "add-remove or replace (default: ${DEFAULT-VALUE}).")
  String neighbouring;

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
    Inputs.epsilon("--target-epsilon", targetEpsilon);
    Inputs.sensitivity("--sensitivity", sensitivity);
    Neighbouring relation = Cli.neighbouring(neighbouring);
    Report report = new Report().put("mechanism", mechanism);
    switch (mechanism) {
      case "gaussian" -> {
        if (targetDelta == null) {
          throw new IllegalArgumentException("--target-delta is required for the gaussian mechanism");
        }
        double delta = Inputs.delta("--target-delta", targetDelta);
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
          double delta = Inputs.delta("--target-delta", targetDelta);
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
        if (!mechanism.startsWith("subsampled-gaussian")) {
          throw new IllegalArgumentException(
              "--mechanism must be gaussian, laplace or subsampled-gaussian:q=Q, but was '"
                  + mechanism + "'");
        }
        dev.tradeoff.cli.Spec parsed = dev.tradeoff.cli.Spec.parse("--mechanism", mechanism);
        parsed.allowOnly(Set.of("q"));
        double q = Inputs.rate(parsed.flag("q"), parsed.number("q"));
        if (targetDelta == null) {
          throw new IllegalArgumentException("--target-delta is required for subsampled-gaussian");
        }
        double delta = Inputs.delta("--target-delta", targetDelta);
        if (relation != Neighbouring.ADD_OR_REMOVE_ONE) {
          throw new IllegalArgumentException(
              "--neighbouring must be add-remove for subsampled-gaussian (Poisson sampling), but was "
                  + neighbouring);
        }
        String m = method != null ? method : "pld";
        if (!m.equals("pld") && !m.equals("rdp")) {
          throw new IllegalArgumentException(
              "--method must be pld or rdp for subsampled-gaussian, but was '" + m + "'");
        }
        GaussianCalibrator calibrator =
            new GaussianCalibrator(accountant(AccountingMethod.parse(m)));
        double sigma = calibrator.poissonSampledSigma(q, count, targetEpsilon, delta);
        report.put("method", m).put("q", q).put("sigma", sigma);
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
