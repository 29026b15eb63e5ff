package dev.tradeoff.mechanisms.gaussian;

import dev.tradeoff.accounting.calibration.AnalyticGaussian;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.Grid;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.sampling.SnappedGaussian;
import java.util.random.RandomGenerator;

/**
 * The Gaussian mechanism for a real-valued query of L2 sensitivity Δ, calibrated with the analytic
 * Gaussian (Balle and Wang 2018, Theorem 8) and made immune to floating-point attacks (Mironov 2012)
 * by snapping: the answer is rounded to g·ℤ, g the largest power of two ≤ Δ·2^−40 (finer, down to
 * Δ·2^−60, when large ε and tiny δ need it), and an exact
 * discrete Gaussian (Canonne, Kamath and Steinke 2020, Algorithm 3) is added in lattice units.
 *
 * <p>Guarantee: exactly (ε, δ)-DP ({@link #guarantee()}) and ρ-zCDP with ρ = Δ_g²/(2σ_g²)
 * ({@link #concentratedGuarantee()}), where Δ_g = ⌊Δ/g⌋ + 1 is the lattice sensitivity and σ_g the
 * lattice σ. How the lattice is paid for: for integer shift m ≤ Δ_g, the discrete Gaussian's δ(ε)
 * is a sum Σ_k h(k) of h(x) = [e^{−x²/2σ²} − e^ε e^{−(x−m)²/2σ²}]_+ divided by the normaliser
 * Z ≥ σ√(2π) (Poisson summation); the sum differs from ∫h by at most the total variation of h, at
 * most 2(1 + e^ε); and ∫h/(σ√(2π)) is the continuous Gaussian's δ. So the discrete δ ≤ continuous δ
 * + 2(1 + e^ε)/(σ_g√(2π)). The mechanism calibrates σ_g by the analytic Gaussian at sensitivity
 * Δ_g for δ minus that slack (about 1e−12 for ε = 1), so the stated (ε, δ) holds with no
 * inflation; the noise standard deviation exceeds the continuous analytic Gaussian's by a relative
 * 2^−40 or less.
 *
 * <p>The accounting event is {@code GuaranteeEvent(ZeroConcentratedDp(ρ))}, which composes
 * rigorously; {@code GaussianEvent} would claim the continuous law's privacy loss distribution,
 * which the lattice law only approximates.
 */
public final class GaussianMechanism implements Mechanism<Double, Double> {

  private static final double SQRT_2PI = Math.sqrt(2 * Math.PI);

  private final double epsilon;
  private final double delta;
  private final double sensitivity;
  private final double gridSigma;
  private final double gridSensitivity;
  private final SnappedGaussian noise;

  private GaussianMechanism(double epsilon, double delta, double sensitivity) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.delta = Require.openUnit("delta", delta);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    // Start at the standard 2^-40 resolution; refine (up to 2^-60) while the lattice slack would
    // take more than a millionth of δ, which happens only for large ε with tiny δ.
    Grid grid = null;
    double slack = Double.NaN;
    double gridSteps = Double.NaN;
    for (int bits = SnappedGaussian.RESOLUTION_BITS; bits <= 60; bits += 5) {
      grid = Grid.finerThan(sensitivity, bits);
      gridSteps = grid.indexSensitivity(sensitivity).doubleValue(); // ≤ 2^61 + 1: exact
      double first = AnalyticGaussian.sigma(epsilon, delta, gridSteps);
      slack = latticeSlack(epsilon, first);
      if (slack <= delta * 1e-6) {
        break;
      }
    }
    Require.that(
        slack < delta / 2,
        "delta",
        "must exceed twice the lattice slack " + slack + " at epsilon " + epsilon,
        delta);
    this.gridSensitivity = gridSteps;
    // a whole number of lattice steps (Math.ceil of a double is exact): larger σ only lowers δ
    this.gridSigma =
        Math.ceil(AnalyticGaussian.sigma(epsilon, delta - slack, gridSensitivity));
    Rational s = Rational.exactly(gridSigma);
    this.noise = new SnappedGaussian(grid, s.times(s));
    Require.that(Double.isFinite(sigma()), "epsilon",
        "must be large enough that the noise sigma for sensitivity " + sensitivity
            + " is a finite double", epsilon);
  }

  /** 2(1 + e^ε)/(σ√(2π)), rounded up by a relative 1e−12. */
  static double latticeSlack(double epsilon, double gridSigma) {
    return 2 * (1 + Math.exp(epsilon)) / (gridSigma * SQRT_2PI) * (1 + 1e-12);
  }

  /** (ε, δ)-DP Gaussian noise for a query of L2 sensitivity Δ. */
  public static GaussianMechanism of(double epsilon, double delta, double sensitivity) {
    return new GaussianMechanism(epsilon, delta, sensitivity);
  }

  /**
   * f(D) + noise, snapped to the lattice; {@code value} must be finite. The release is always
   * finite: lattice points beyond the double range are released as ±{@link Double#MAX_VALUE} (a
   * fixed function of the noisy lattice point, so post-processing).
   */
  public double release(double value, RandomGenerator random) {
    Require.finite("value", value);
    Require.nonNull("random", random);
    return noise.addTo(random, value);
  }

  @Override
  public Double release(Double value, RandomGenerator random) {
    Require.nonNull("value", value);
    return release(value.doubleValue(), random);
  }

  /** The effective noise standard-deviation parameter σ = σ_g·g in the query's units. */
  public double sigma() {
    return gridSigma * noise.grid().granularity();
  }

  /** The lattice noise used. */
  public SnappedGaussian noise() {
    return noise;
  }

  public double epsilon() {
    return epsilon;
  }

  public double delta() {
    return delta;
  }

  public double sensitivity() {
    return sensitivity;
  }

  @Override
  public ApproxDp guarantee() {
    return new ApproxDp(epsilon, delta);
  }

  /** ρ = Δ_g²/(2σ_g²)-zCDP [CKS20, Theorem 4], rounded up. */
  public ZeroConcentratedDp concentratedGuarantee() {
    double ratio = DirectedRounding.quotientUp(gridSensitivity, gridSigma);
    return new ZeroConcentratedDp(DirectedRounding.productUp(DirectedRounding.productUp(ratio, ratio), 0.5));
  }

  @Override
  public DpEvent event() {
    return new GuaranteeEvent(concentratedGuarantee());
  }
}
