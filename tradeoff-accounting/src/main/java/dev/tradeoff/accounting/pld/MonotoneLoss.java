package dev.tradeoff.accounting.pld;

/**
 * A privacy loss that is a strictly monotone function L(x) of a real output x on an interval,
 * where x has a P-density, plus finitely many atoms. {@link Discretizer} integrates the density
 * over the x-preimage of each loss bin by Gauss–Legendre quadrature, so it never differences
 * cumulative probabilities.
 */
sealed interface MonotoneLoss extends LossModel
    permits SampledGaussianLoss, SampledLaplaceLoss, WithoutReplacementGaussianLoss {

  /** Atoms outside the continuous part (may be empty). */
  Outcomes atoms();

  /** The smallest x of the continuous part to integrate over, given the tail mass to leave out. */
  double xLower(double tailMass);

  /** The largest x of the continuous part to integrate over, given the tail mass to leave out. */
  double xUpper(double tailMass);

  /** P-mass of the continuous part below x. */
  double massBelow(double x);

  /** P-mass of the continuous part above x. */
  double massAbove(double x);

  /** P-density of x on the continuous part. */
  double density(double x);

  /** L(x). */
  double loss(double x);

  /** The x with L(x) = l, for l in the range of L. */
  double xAtLoss(double l);

  /** Whether L increases with x. */
  boolean increasing();

  /** A length over which the density changes by a bounded factor (quadrature pieces are finer). */
  double scale();
}
