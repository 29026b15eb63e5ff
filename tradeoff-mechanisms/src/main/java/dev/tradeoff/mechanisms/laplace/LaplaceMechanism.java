package dev.tradeoff.mechanisms.laplace;

import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.Grid;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.sampling.SnappedLaplace;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * The Laplace mechanism (Dwork, McSherry, Nissim and Smith 2006) for a real-valued query of L1
 * sensitivity Δ, made immune to floating-point attacks (Mironov 2012) by snapping: the answer is
 * rounded to the lattice g·ℤ with g the largest power of two ≤ Δ·2^−40, and an exact discrete
 * Laplace integer is added in lattice units ({@link SnappedLaplace}).
 *
 * <p>Guarantee: ε-DP ({@link PureDp}), exactly. Rounding to the lattice can move two neighbouring
 * answers apart by Δ_g = ⌊Δ/g⌋ + 1 lattice steps instead of Δ/g, so the lattice noise has scale
 * t = ⌈Δ_g/ε⌉ steps (a whole number, which keeps the exact sampler in long arithmetic): the
 * mechanism is (Δ_g/t)-DP with Δ_g/t ≤ ε, and the released noise has scale b = t·g, larger than
 * the textbook Δ/ε by a factor of at most 1 + (1 + ε)·2^−40 (see {@link #scale()}). No ε or δ
 * inflation. The set of possible
 * outputs is {m·g : m ∈ ℤ} (as doubles) whatever the input.
 *
 * <p>The accounting event is {@code GuaranteeEvent(PureDp(ε))}: the released law is a discrete
 * Laplace on a fine lattice, whose privacy loss distribution is close to, but not dominated by, the
 * continuous Laplace's, so {@code LaplaceEvent} would overstate what an accountant may assume.
 */
public final class LaplaceMechanism implements Mechanism<Double, Double> {

  private final double epsilon;
  private final double sensitivity;
  private final SnappedLaplace noise;

  private LaplaceMechanism(double epsilon, double sensitivity) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    Grid grid = Grid.finerThan(sensitivity, SnappedLaplace.RESOLUTION_BITS);
    BigInteger steps = grid.indexSensitivity(sensitivity);
    BigInteger gridScale = Rational.of(steps).dividedBy(Rational.exactly(epsilon)).ceil();
    this.noise = new SnappedLaplace(grid, Rational.of(gridScale));
    Require.that(Double.isFinite(noise.scale()), "epsilon",
        "must be large enough that the noise scale sensitivity/epsilon (" + sensitivity
            + "/epsilon) is a finite double", epsilon);
  }

  /** ε-DP Laplace noise for a query of L1 sensitivity Δ. */
  public static LaplaceMechanism of(double epsilon, double sensitivity) {
    return new LaplaceMechanism(epsilon, sensitivity);
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

  /** The effective noise scale b = ⌈Δ_g/ε⌉·g (≥ Δ/ε), rounded to the nearest double. */
  public double scale() {
    return noise.scale();
  }

  /** The lattice noise used. */
  public SnappedLaplace noise() {
    return noise;
  }

  public double epsilon() {
    return epsilon;
  }

  public double sensitivity() {
    return sensitivity;
  }

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }
}
