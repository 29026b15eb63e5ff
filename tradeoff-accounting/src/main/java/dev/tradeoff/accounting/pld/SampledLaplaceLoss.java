package dev.tradeoff.accounting.pld;

/**
 * The Laplace mechanism with noise Lap(b) on a sensitivity-1 query, Poisson-subsampled with
 * probability a (a = 1: no sampling). With u(x) = (|x| − |x − 1|)/b, which is −1/b for x ≤ 0, 1/b
 * for x ≥ 1 and (2x − 1)/b between, the REMOVE direction is P = aLap(1, b) + (1−a)Lap(0, b),
 * Q = Lap(0, b), loss log(a·e^u + 1 − a); the ADD direction is P = Lap(0, b) with the negated loss.
 * The half-lines x ≤ 0 and x ≥ 1 are two atoms; (0, 1) is the continuous part.
 */
record SampledLaplaceLoss(double b, double a, Direction direction) implements MonotoneLoss {

  private boolean mixtureIsP() {
    return direction == Direction.REMOVE;
  }

  @Override
  public Outcomes atoms() {
    double far = Math.exp(-1 / b); // Lap(0,b) mass of x >= 1, and Lap(1,b) mass of x <= 0
    // Masses of x <= 0 and x >= 1 under N0 = Lap(0, b) and N1 = Lap(1, b).
    double base0 = 0.5;
    double base1 = 0.5 * far;
    double shift0 = 0.5 * far;
    double shift1 = 0.5;
    double mix0 = a * shift0 + (1 - a) * base0;
    double mix1 = a * shift1 + (1 - a) * base1;
    double loss0 = MixtureLoss.mixed(a, -1 / b);
    double loss1 = MixtureLoss.mixed(a, 1 / b);
    if (direction == Direction.REMOVE) {
      return new Outcomes(
          new double[] {mix0, mix1}, new double[] {base0, base1}, new double[] {loss0, loss1}, 0, 0);
    }
    return new Outcomes(
        new double[] {base0, base1}, new double[] {mix0, mix1}, new double[] {-loss0, -loss1}, 0, 0);
  }

  @Override
  public double xLower(double tailMass) {
    return 0;
  }

  @Override
  public double xUpper(double tailMass) {
    return 1;
  }

  @Override
  public double massBelow(double x) {
    return 0;
  }

  @Override
  public double massAbove(double x) {
    return 0;
  }

  @Override
  public double density(double x) {
    double base = Math.exp(-x / b) / (2 * b);
    return mixtureIsP() ? a * Math.exp(-(1 - x) / b) / (2 * b) + (1 - a) * base : base;
  }

  @Override
  public double loss(double x) {
    double l = MixtureLoss.mixed(a, (2 * x - 1) / b);
    return direction == Direction.REMOVE ? l : -l;
  }

  @Override
  public double xAtLoss(double l) {
    double u = MixtureLoss.unmixed(a, direction == Direction.REMOVE ? l : -l);
    return (b * u + 1) / 2;
  }

  @Override
  public boolean increasing() {
    return direction == Direction.REMOVE;
  }

  @Override
  public double scale() {
    return b;
  }
}
