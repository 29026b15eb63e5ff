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
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.cli.io.Report;
import dev.tradeoff.cli.options.PrivacyParameters;
import java.util.function.DoubleFunction;
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
      converter = CalibratedMechanism.Converter.class,
      description = "gaussian, laplace, subsampled-gaussian:q=Q, batch-gaussian:n=N,batch=B or"
          + " shuffled-gaussian:batches=T.")
  CalibratedMechanism mechanism;

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
      converter = CalibrationMethod.Converter.class,
      description = "gaussian: analytic (default for --count 1), pld (default), rdp, zcdp, gdp;"
          + " laplace: basic (default), pld, rdp, optimal, kairouz.")
  CalibrationMethod method;

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
    CalibrationRequest r = CalibrationRequest.of(mechanism, method, count, targetEpsilon,
        targetDelta, sensitivity, neighbouring.relation, discretization);
    String mechanismText = spec.findOption("--mechanism").stringValues().get(0);
    Report report = new Report().put("mechanism", mechanismText)
        .put("method", r.method().cliName());
    if (r.mechanism() instanceof CalibratedMechanism.Gaussian) {
      double sigma = r.method() instanceof CalibrationMethod.Analytic
          ? AnalyticGaussian.sigma(r.targetEpsilon(), r.targetDelta(), r.sensitivity())
          : r.sensitivity() * calibrator(r).sigma(r.count(), r.targetEpsilon(), r.targetDelta(),
              r.relation());
      report.put("sigma", sigma);
    } else if (r.mechanism() instanceof CalibratedMechanism.Laplace) {
      double scale = r.method().is(AccountingMethod.BASIC)
          ? LaplaceCalibration.scale(r.targetEpsilon(), r.count(), r.sensitivity())
          : r.sensitivity() * calibrator(r).sigma(
              b -> new SelfComposedEvent(new LaplaceEvent(b), r.count()), r.targetEpsilon(),
              r.targetDelta(), r.relation());
      report.put("scale", scale);
    } else if (r.mechanism() instanceof CalibratedMechanism.SubsampledGaussian s) {
      GaussianCalibrator.Calibration c =
          calibrator(r).poissonSampled(s.q(), r.count(), r.targetEpsilon(), r.targetDelta());
      report.put("q", s.q()).put("sigma", c.sigma())
          .putRoundedDown("sigmaRefused", c.below())
          .put("certified", c.certified(r.targetEpsilon()));
    } else {
      DoubleFunction<DpEvent> step =
          r.mechanism() instanceof CalibratedMechanism.ShuffledGaussian s
              ? sigma -> new ShuffledEpochsEvent(new GaussianEvent(sigma), r.count(), s.batches())
              : batchStep((CalibratedMechanism.BatchGaussian) r.mechanism(), r.count());
      GaussianCalibrator.Calibration c = calibrator(r).calibrate(step, r.targetEpsilon(),
          r.targetDelta(), r.relation(), GaussianCalibrator.DP_SGD_TOLERANCE);
      report.put("sigma", c.sigma()).putRoundedDown("sigmaRefused", c.below())
          .put("certified", c.certified(r.targetEpsilon()));
    }
    report
        .put("count", r.count())
        .put("targetEpsilon", r.targetEpsilon())
        .put("targetDelta", r.targetDelta())
        .put("sensitivity", r.sensitivity());
    report.print(spec.commandLine().getOut(), json);
    return 0;
  }

  /**
   * DP-SGD with fixed-size batches (batch-gaussian:n=N,batch=B, --count steps) under replace-one
   * neighbouring: one step's event for a noise multiplier.
   */
  private static DoubleFunction<DpEvent> batchStep(CalibratedMechanism.BatchGaussian b,
      int count) {
    return sigma -> new SelfComposedEvent(
        new SampledWithoutReplacementEvent(b.n(), b.batch(), new GaussianEvent(sigma)), count);
  }

  /** The request's accountant (its method is one, every method but analytic). */
  private static GaussianCalibrator calibrator(CalibrationRequest r) {
    AccountingMethod m = ((CalibrationMethod.ByAccountant) r.method()).method();
    Accountant accountant = AccountComposeCommand.pldAccountant(m, r.discretization());
    return new GaussianCalibrator(accountant);
  }
}
