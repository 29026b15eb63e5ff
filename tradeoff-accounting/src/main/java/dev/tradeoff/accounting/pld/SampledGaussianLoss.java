package dev.tradeoff.accounting.pld;

import dev.tradeoff.accounting.numerics.StandardNormal;

/**
 * The Gaussian mechanism with noise N(0, σ²) on a sensitivity-1 query, Poisson-subsampled with
 * probability a (a = 1: no sampling). With u(x) = (2x − 1)/(2σ²), the REMOVE direction is
 * P = aN(1, σ²) + (1−a)N(0, σ²), Q = N(0, σ²), loss log(a·e^u + 1 − a), increasing in x; the ADD
 * direction is P = N(0, σ²) with the negated loss. For a = 1 this is the exact loss of the Gaussian
 * mechanism, distributed N(1/(2σ²), 1/σ²) under P.
 */
record SampledGaussianLoss(double sigma, double a, Direction direction) implements MonotoneLoss {

  private static final Outcomes NO_ATOMS =
      new Outcomes(new double[0], new double[0], new double[0], 0, 0);

  @Override
  public Outcomes atoms() {
    return NO_ATOMS;
  }

  private boolean mixtureIsP() {
    return direction == Direction.REMOVE;
  }

  @Override
  public double xLower(double tailMass) {
    // P has a component N(0, σ²) unless it is N(1, σ²) alone (a = 1, remove direction); either
    // way Pr_P[x < t] <= Φ((t − centre)/σ) for the lowest centre.
    double centre = mixtureIsP() && a == 1 ? 1 : 0;
    return centre - sigma * StandardNormal.inverseSurvival(tailMass);
  }

  @Override
  public double xUpper(double tailMass) {
    // P has a component N(1, σ²) unless it is N(0, σ²) (add direction).
    double centre = mixtureIsP() ? 1 : 0;
    return centre + sigma * StandardNormal.inverseSurvival(tailMass);
  }

  @Override
  public double massBelow(double x) {
    double base = StandardNormal.cdf(x / sigma);
    return mixtureIsP() ? a * StandardNormal.cdf((x - 1) / sigma) + (1 - a) * base : base;
  }

  @Override
  public double massAbove(double x) {
    double base = StandardNormal.survival(x / sigma);
    return mixtureIsP() ? a * StandardNormal.survival((x - 1) / sigma) + (1 - a) * base : base;
  }

  @Override
  public double density(double x) {
    double base = normal(x, sigma);
    return mixtureIsP() ? a * normal(x - 1, sigma) + (1 - a) * base : base;
  }

  /** The N(0, σ²) density at x. */
  static double normal(double x, double sigma) {
    double z = x / sigma;
    return Math.exp(-0.5 * z * z) / (sigma * Math.sqrt(2 * Math.PI));
  }

  @Override
  public double loss(double x) {
    double u = (2 * x - 1) / (2 * sigma * sigma);
    double l = MixtureLoss.mixed(a, u);
    return direction == Direction.REMOVE ? l : -l;
  }

  @Override
  public double xAtLoss(double l) {
    double u = MixtureLoss.unmixed(a, direction == Direction.REMOVE ? l : -l);
    return sigma * sigma * u + 0.5;
  }

  @Override
  public boolean increasing() {
    return direction == Direction.REMOVE;
  }

  @Override
  public double scale() {
    return sigma;
  }
}
