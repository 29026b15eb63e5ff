package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.cli.io.Inputs;

/**
 * One {@code account calibrate} request. The target ε and δ, the mechanism, the method and the
 * relation were converted when the arguments were parsed; the rules that join them (which methods
 * a mechanism allows, which mechanisms need δ, which relation each is analysed under) are checked
 * here, once, by the record's construction, and the command trusts what it holds.
 *
 * @param targetDelta null only for laplace with the basic method (pure composition needs no δ)
 * @param discretization null unless given (pld only)
 */
record CalibrationRequest(CalibratedMechanism mechanism, CalibrationMethod method, int count,
    double targetEpsilon, Double targetDelta, double sensitivity, Neighbouring relation,
    Double discretization) {

  CalibrationRequest {
    Inputs.count("--count", count, 1, AccountComposeCommand.MAX_COUNT);
    Inputs.sensitivity("--sensitivity", sensitivity);
    String name = mechanism.name();
    if (method instanceof CalibrationMethod.Analytic) {
      if (!(mechanism instanceof CalibratedMechanism.Gaussian)) {
        throw new IllegalArgumentException("--method analytic calibrates the gaussian mechanism"
            + " only, but --mechanism was " + name);
      }
      if (count != 1) {
        throw new IllegalArgumentException("--method analytic calibrates one release, but --count"
            + " was " + count + "; use pld or rdp");
      }
    }
    if (mechanism instanceof CalibratedMechanism.SubsampledGaussian
        && !method.is(AccountingMethod.PLD) && !method.is(AccountingMethod.RDP)) {
      throw new IllegalArgumentException("--method must be pld or rdp for subsampled-gaussian,"
          + " but was '" + method.cliName() + "'");
    }
    if (discretization != null && !method.is(AccountingMethod.PLD)) {
      throw new IllegalArgumentException("--discretization applies to --method pld only, but"
          + " method was " + method.cliName());
    }
    boolean pureLaplace = mechanism instanceof CalibratedMechanism.Laplace
        && method.is(AccountingMethod.BASIC);
    if (targetDelta == null && !pureLaplace) {
      throw new IllegalArgumentException("--target-delta is required for " + name
          + (mechanism instanceof CalibratedMechanism.Laplace
              ? " with --method " + method.cliName() : ""));
    }
    if (mechanism instanceof CalibratedMechanism.SubsampledGaussian
        && relation != Neighbouring.ADD_OR_REMOVE_ONE) {
      throw new IllegalArgumentException("--neighbouring must be add-remove for"
          + " subsampled-gaussian (Poisson sampling), but was " + NeighbouringFlag.name(relation));
    }
    if ((mechanism instanceof CalibratedMechanism.BatchGaussian
        || mechanism instanceof CalibratedMechanism.ShuffledGaussian)
        && relation != Neighbouring.REPLACE_ONE) {
      throw new IllegalArgumentException("--neighbouring must be replace for " + name
          + " (fixed-size batches are analysed under replace-one), but was "
          + NeighbouringFlag.name(relation));
    }
  }

  /**
   * The request, with the method's default when {@code method} is null: analytic for one
   * gaussian release, basic for laplace, pld otherwise.
   */
  static CalibrationRequest of(CalibratedMechanism mechanism, CalibrationMethod method, int count,
      double targetEpsilon, Double targetDelta, double sensitivity, Neighbouring relation,
      Double discretization) {
    CalibrationMethod m = method != null ? method
        : mechanism instanceof CalibratedMechanism.Gaussian && count == 1
            ? new CalibrationMethod.Analytic()
            : new CalibrationMethod.ByAccountant(mechanism instanceof CalibratedMechanism.Laplace
                ? AccountingMethod.BASIC : AccountingMethod.PLD);
    return new CalibrationRequest(mechanism, m, count, targetEpsilon, targetDelta, sensitivity,
        relation, discretization);
  }
}
