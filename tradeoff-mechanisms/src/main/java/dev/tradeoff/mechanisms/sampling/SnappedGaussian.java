package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Gaussian-shaped noise on a power-of-two lattice: g·Y with Y ~ N_Z(0, σ²/g²), built on the exact
 * {@link DiscreteGaussian} sampler (the snapping approach of Google's differential privacy library
 * and OpenDP, answering Mironov 2012).
 *
 * <p>{@link #addTo} releases g·(round(x/g) + Y). Exact guarantee: if |x − x′| ≤ Δ then the lattice
 * indices differ by at most Δ_g = ⌊Δ/g⌋ + 1, so the release is ρ-zCDP with ρ = Δ_g²/(2(σ/g)²)
 * [CKS20, Theorem 4] ≤ (Δ + g)²/(2σ²): the discretisation inflates ρ by at most (1 + g/Δ)². For
 * (ε, δ) see the Gaussian mechanism in {@code dev.tradeoff.mechanisms.gaussian}, which accounts for
 * the lattice exactly. The set of possible outputs never depends on x.
 */
public final class SnappedGaussian {

  /** Resolution of {@link #forSigma}'s lattice: g ≤ σ·2^−40. */
  public static final int RESOLUTION_BITS = 40;

  private final Grid grid;
  private final Rational gridSigmaSquared;
  private final DiscreteGaussian steps;

  /**
   * @param grid the lattice g·ℤ
   * @param gridSigmaSquared σ²/g², the variance parameter in lattice steps
   */
  public SnappedGaussian(Grid grid, Rational gridSigmaSquared) {
    Require.nonNull("grid", grid);
    Require.nonNull("gridSigmaSquared", gridSigmaSquared);
    Require.that(
        gridSigmaSquared.signum() > 0, "gridSigmaSquared", "must be > 0", gridSigmaSquared);
    this.grid = grid;
    this.gridSigmaSquared = gridSigmaSquared;
    this.steps = new DiscreteGaussian(gridSigmaSquared);
  }

  /**
   * Noise of parameter ⌈σ/g⌉·g ≥ σ (within a relative 2^−40) on the lattice with g the largest
   * power of two ≤ σ·2^−40.
   */
  public static SnappedGaussian forSigma(double sigma) {
    Grid grid = Grid.finerThan(sigma, RESOLUTION_BITS);
    Rational s = Rational.of(Rational.exactly(sigma).dividedBy(grid.granularityExactly()).ceil());
    return new SnappedGaussian(grid, s.times(s));
  }

  /** The lattice g·ℤ. */
  public Grid grid() {
    return grid;
  }

  /** σ²/g², the variance parameter in lattice steps. */
  public Rational gridSigmaSquared() {
    return gridSigmaSquared;
  }

  /** One noise draw g·Y. */
  public double sample(RandomGenerator random) {
    return grid.value(steps.sampleBig(random));
  }

  /** g·(round(x/g) + Y) for a finite x. */
  public double addTo(RandomGenerator random, double x) {
    try {
      return grid.valueAt(x, steps.sampleLong(random));
    } catch (BeyondLong beyond) {
      return grid.value(grid.index(x).add(beyond.value()));
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SnappedGaussian g
        && g.grid.equals(grid)
        && g.gridSigmaSquared.equals(gridSigmaSquared);
  }

  @Override
  public int hashCode() {
    return Objects.hash(grid, gridSigmaSquared);
  }

  @Override
  public String toString() {
    return "SnappedGaussian[grid=" + grid + ", gridSigmaSquared=" + gridSigmaSquared + "]";
  }
}
