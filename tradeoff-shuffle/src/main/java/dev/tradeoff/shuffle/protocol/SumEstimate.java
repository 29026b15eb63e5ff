package dev.tradeoff.shuffle.protocol;

/**
 * An unbiased estimate of a sum released by a shuffle protocol, with the variance of the estimator.
 *
 * @param value the released estimate z
 * @param variance the variance of z (exact where the protocol's Javadoc says so, else an upper
 *     bound)
 */
public record SumEstimate(double value, double variance) {

  /** The standard error √variance. */
  public double standardError() {
    return Math.sqrt(variance);
  }
}
