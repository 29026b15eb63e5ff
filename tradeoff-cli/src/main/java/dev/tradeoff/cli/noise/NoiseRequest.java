package dev.tradeoff.cli.noise;

import dev.tradeoff.cli.io.Inputs;

/**
 * One {@code noise} request. The mechanism was converted when the arguments were parsed; the
 * rules that join it with {@code --value}, {@code --sensitivity} and {@code --count} are checked
 * here, once, by the record's construction, and the command trusts what it holds: a discrete
 * mechanism needs an integer value and sensitivity, an ε-calibrated one a finite noise scale
 * {@code --sensitivity / ε <= Inputs.MAX_MAGNITUDE} (so that the noise, and the value plus noise,
 * stay finite and within a long for the discrete mechanisms), and {@code discrete-gaussian:rho} a
 * σ = {@code --sensitivity / sqrt(2 rho)} no larger than {@link Inputs#MAX_NOISE}.
 */
record NoiseRequest(NoiseMechanism mechanism, double value, double sensitivity, int count) {

  /** Largest number of releases of one run. */
  static final int MAX_COUNT = 1_000_000;

  NoiseRequest {
    Inputs.magnitude("--value", value);
    Inputs.sensitivity("--sensitivity", sensitivity);
    Inputs.count("--count", count, 1, MAX_COUNT);
    if (mechanism.discrete()) {
      integer("--value", value);
      integer("--sensitivity", sensitivity);
    }
    if (mechanism instanceof NoiseMechanism.ByEpsilon e
        && !(sensitivity / e.epsilon() <= Inputs.MAX_MAGNITUDE)) {
      throw new IllegalArgumentException("--sensitivity / --mechanism " + e.name()
          + ":epsilon (the noise scale) must be <= " + Inputs.MAX_MAGNITUDE + ", but was "
          + sensitivity / e.epsilon());
    }
    if (mechanism instanceof NoiseMechanism.DiscreteGaussianZcdp z) {
      Inputs.range("--mechanism discrete-gaussian:rho", z.rho(),
          0.5 * Math.pow(sensitivity / Inputs.MAX_NOISE, 2), Inputs.MAX_RHO,
          "a zCDP rho: smaller needs sigma = --sensitivity / sqrt(2 rho) above "
              + Inputs.fmt(Inputs.MAX_NOISE));
    }
  }

  /** The value, for a discrete mechanism (an integer, checked). */
  long integerValue() {
    return (long) value;
  }

  /** The sensitivity, for a discrete mechanism (an integer, checked). */
  long integerSensitivity() {
    return (long) sensitivity;
  }

  private static void integer(String name, double x) {
    if (x != Math.rint(x) || Math.abs(x) >= 0x1.0p62) {
      throw new IllegalArgumentException(
          name + " must be an integer for a discrete mechanism, but was " + x);
    }
  }
}
