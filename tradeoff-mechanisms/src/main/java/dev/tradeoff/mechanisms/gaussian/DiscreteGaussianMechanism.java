package dev.tradeoff.mechanisms.gaussian;

import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.IntegerNoiseMechanism;
import dev.tradeoff.mechanisms.sampling.DiscreteGaussian;
import java.util.random.RandomGenerator;

/**
 * The discrete Gaussian mechanism (Canonne, Kamath and Steinke 2020) for an integer query of
 * integer L2 sensitivity Δ: f(D) + Y with Y ~ N_Z(0, σ²), σ² the exact square of the given double σ.
 *
 * <p>Guarantee: (Δ²/(2σ²))-zCDP, [CKS20, Theorem 4] (rounded up). The accounting event is
 * {@link DiscreteGaussianEvent}(σ) when Δ = 1 and {@code GuaranteeEvent(ZeroConcentratedDp)}
 * otherwise.
 */
public final class DiscreteGaussianMechanism implements IntegerNoiseMechanism {

  private final double sigma;
  private final long sensitivity;
  private final DiscreteGaussian noise;

  private DiscreteGaussianMechanism(double sigma, long sensitivity) {
    this.sigma = Require.positive("sigma", sigma);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.noise = DiscreteGaussian.withSigma(sigma);
  }

  /** N_Z(0, σ²) noise for an integer query of integer sensitivity Δ ≥ 1. */
  public static DiscreteGaussianMechanism of(double sigma, long sensitivity) {
    return new DiscreteGaussianMechanism(sigma, sensitivity);
  }

  /**
   * The smallest σ (rounded up) for which the mechanism is ρ-zCDP: σ = Δ/√(2ρ).
   *
   * @param rho ρ &gt; 0
   */
  public static DiscreteGaussianMechanism forZcdp(double rho, long sensitivity) {
    Require.positive("rho", rho);
    Require.positive("sensitivity", sensitivity);
    double sigma = DirectedRounding.quotientUp(sensitivity, Math.sqrt(2 * rho));
    while (!(new DiscreteGaussianMechanism(sigma, sensitivity).guarantee().rho() <= rho)) {
      sigma = Math.nextUp(sigma);
    }
    return new DiscreteGaussianMechanism(sigma, sensitivity);
  }

  /** f(D) + Y, clamped to the long range (see {@link IntegerNoiseMechanism#release}). */
  @Override
  public long release(long value, RandomGenerator random) {
    Require.nonNull("random", random);
    return IntegerNoiseMechanism.saturatedSum(value, noise.sampleBig(random));
  }

  public DiscreteGaussian noise() {
    return noise;
  }

  public double sigma() {
    return sigma;
  }

  public long sensitivity() {
    return sensitivity;
  }

  @Override
  public ZeroConcentratedDp guarantee() {
    double ratio = DirectedRounding.quotientUp(sensitivity, sigma);
    return new ZeroConcentratedDp(DirectedRounding.productUp(DirectedRounding.productUp(ratio, ratio), 0.5));
  }

  @Override
  public DpEvent event() {
    return sensitivity == 1 ? new DiscreteGaussianEvent(sigma) : new GuaranteeEvent(guarantee());
  }
}
