package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * Laplace-shaped noise on a power-of-two lattice: g·Y with Y discrete Laplace of scale b/g in grid
 * units, built on the exact {@link DiscreteLaplace} sampler (the snapping approach of Google's
 * differential privacy library and OpenDP, answering Mironov 2012).
 *
 * <p>{@link #addTo} releases g·(round(x/g) + Y). Exact guarantee: if |x − x′| ≤ Δ then the two
 * lattice indices differ by at most Δ_g = ⌊Δ/g⌋ + 1 (see {@link Grid#indexSensitivity}), so the
 * release is (Δ_g·g/b)-DP, i.e. ε ≤ (Δ + g)/b: the discretisation inflates ε by a factor of at most
 * 1 + g/Δ (about 1 + 2^−40 with {@link #forScale}'s grid when Δ ≈ b). The Laplace mechanism in
 * {@code dev.tradeoff.mechanisms.laplace} instead enlarges b by that factor so that its stated ε is
 * exact. The set of possible outputs, {value(m) : m ∈ ℤ}, never depends on x.
 *
 * @param grid the lattice g·ℤ
 * @param gridScale b/g, the scale in lattice steps
 */
public record SnappedLaplace(Grid grid, Rational gridScale) {

  /** Resolution of {@link #forScale}'s lattice: g ≤ b·2^−40. */
  public static final int RESOLUTION_BITS = 40;

  public SnappedLaplace {
    Require.nonNull("grid", grid);
    Require.nonNull("gridScale", gridScale);
    Require.that(gridScale.signum() > 0, "gridScale", "must be > 0", gridScale);
  }

  /**
   * Noise of scale ⌈b/g⌉·g ≥ b (within a relative 2^−40 of b) on the lattice with g the largest
   * power of two ≤ b·2^−40.
   */
  public static SnappedLaplace forScale(double scale) {
    Grid grid = Grid.finerThan(scale, RESOLUTION_BITS);
    return new SnappedLaplace(
        grid, Rational.of(Rational.exactly(scale).dividedBy(grid.granularityExactly()).ceil()));
  }

  /** The continuous-equivalent scale b = g·gridScale (rounded to double, for display). */
  public double scale() {
    return gridScale.doubleValue() * grid.granularity();
  }

  /** One noise draw g·Y. */
  public double sample(RandomGenerator random) {
    return grid.value(new DiscreteLaplace(gridScale).sampleBig(random));
  }

  /** g·(round(x/g) + Y) for a finite x. */
  public double addTo(RandomGenerator random, double x) {
    try {
      return grid.valueAt(x, new DiscreteLaplace(gridScale).sampleLong(random));
    } catch (BeyondLong beyond) {
      return grid.value(grid.index(x).add(beyond.value()));
    }
  }
}
