package dev.tradeoff.mechanisms.sparsevector;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.DiscreteLaplace;
import dev.tradeoff.mechanisms.sampling.Grid;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.sampling.SnappedLaplace;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The sparse vector technique in its correct classic form (Dwork and Roth 2014, Algorithm 1
 * AboveThreshold for c = 1; Lyu, Su and Li 2017, Algorithm 1, for general c): with ε₁ = ε₂ = ε/2,
 * draw ρ ~ Lap(Δ/ε₁) once; for each query q_i draw ν_i ~ Lap(2cΔ/ε₂) (cΔ/ε₂ for monotone queries)
 * and answer ⊤ if q_i + ν_i ≥ T + ρ, else ⊥; stop after the c-th ⊤. Only the ⊤/⊥ pattern is
 * released, never the noisy values.
 *
 * <p>Implemented on a lattice: queries are rounded to g·ℤ (g the largest power of two ≤ Δ·2^−40),
 * the public threshold likewise, and ρ, ν_i are exact discrete Laplace integers of scale ⌈Δ_g/ε₁⌉
 * and ⌈2cΔ_g/ε₂⌉ (⌈cΔ_g/ε₂⌉) lattice steps, Δ_g = ⌊Δ/g⌋ + 1 (rounding the scales up only lowers
 * the loss). Lyu–Su–Li's proof (shift ρ by Δ_g and each
 * ⊤-query's ν by 2Δ_g) holds verbatim for integer noise and integer shifts, so the mechanism is
 * exactly ε-DP ({@link PureDp}) for any number of queries.
 */
public final class AboveThreshold implements Mechanism<double[], List<Boolean>> {

  private final double epsilon;
  private final double sensitivity;
  private final double threshold;
  private final int maxAbove;
  private final boolean monotone;
  private final Grid grid;
  private final DiscreteLaplace thresholdNoise;
  private final DiscreteLaplace queryNoise;

  private AboveThreshold(
      double epsilon, double sensitivity, double threshold, int maxAbove, boolean monotone) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.threshold = Require.finite("threshold", threshold);
    this.maxAbove = Require.positive("maxAbove", maxAbove);
    this.monotone = monotone;
    this.grid = Grid.finerThan(sensitivity, SnappedLaplace.RESOLUTION_BITS);
    Rational steps = Rational.of(grid.indexSensitivity(sensitivity));
    Rational half = Rational.exactly(epsilon / 2); // ε/2 is exact in binary
    this.thresholdNoise = new DiscreteLaplace(Rational.of(steps.dividedBy(half).ceil()));
    Rational queryFactor = Rational.of((monotone ? 1L : 2L) * maxAbove, 1);
    this.queryNoise =
        new DiscreteLaplace(Rational.of(steps.times(queryFactor).dividedBy(half).ceil()));
  }

  /** A builder; sensitivity defaults to 1, maxAbove (c) to 1, monotone to false. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The answers ⊤ (true) / ⊥ (false) to the queries in order, stopping after the c-th ⊤ (so the
   * list may be shorter than the queries).
   */
  @Override
  public List<Boolean> release(double[] queries, RandomGenerator random) {
    double[] q = Require.finiteValues("queries", queries);
    Require.nonNull("random", random);
    BigInteger noisyThreshold = grid.index(threshold).add(thresholdNoise.sampleBig(random));
    List<Boolean> answers = new ArrayList<>();
    int above = 0;
    for (double value : q) {
      BigInteger noisy = grid.index(value).add(queryNoise.sampleBig(random));
      boolean isAbove = noisy.compareTo(noisyThreshold) >= 0;
      answers.add(isAbove);
      if (isAbove && ++above == maxAbove) {
        break;
      }
    }
    return List.copyOf(answers);
  }

  public double epsilon() {
    return epsilon;
  }

  public double threshold() {
    return threshold;
  }

  public int maxAbove() {
    return maxAbove;
  }

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }


  /** Builder for {@link AboveThreshold}. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private double sensitivity = 1;
    private double threshold = Double.NaN;
    private int maxAbove = 1;
    private boolean monotone;

    private Builder() {}

    public Builder epsilon(double epsilon) {
      this.epsilon = epsilon;
      return this;
    }

    public Builder sensitivity(double sensitivity) {
      this.sensitivity = sensitivity;
      return this;
    }

    public Builder threshold(double threshold) {
      this.threshold = threshold;
      return this;
    }

    /** c, the number of ⊤ answers after which the mechanism stops. */
    public Builder maxAbove(int maxAbove) {
      this.maxAbove = maxAbove;
      return this;
    }

    public Builder monotone(boolean monotone) {
      this.monotone = monotone;
      return this;
    }

    public AboveThreshold build() {
      return new AboveThreshold(epsilon, sensitivity, threshold, maxAbove, monotone);
    }
  }
}
