package dev.tradeoff.mechanisms.selection;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.DiscreteLaplace;
import dev.tradeoff.mechanisms.sampling.Grid;
import dev.tradeoff.mechanisms.sampling.Rational;
import dev.tradeoff.mechanisms.sampling.SnappedLaplace;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * Report-noisy-max: add independent noise to each utility and report the index of the largest
 * noisy value. Three noise families, each ε-DP for utilities of sensitivity Δ:
 *
 * <ul>
 *   <li>{@link Noise#LAPLACE}: Laplace noise of scale 2Δ/ε, or Δ/ε for monotone utilities (Dwork and
 *       Roth 2014, Claim 3.9). Implemented on a lattice: utilities are rounded to g·ℤ (g the largest
 *       power of two ≤ Δ·2^−40), exact discrete Laplace integers of scale ⌈2Δ_g/ε⌉ (⌈Δ_g/ε⌉
 *       monotone) lattice steps are added, with Δ_g = ⌊Δ/g⌋ + 1, and ties go to the smallest
 *       index. ε-DP (the rounded-up scale only lowers the loss): index r wins iff its noise clears an integer threshold set by the others, which
 *       neighbours move by at most 2Δ_g (Δ_g monotone) steps, and a discrete Laplace tail shrinks by
 *       at most e^{−m/t} under a shift of m steps.
 *   <li>{@link Noise#GUMBEL}: Gumbel noise of scale 2Δ/ε (Δ/ε monotone), whose argmax has exactly
 *       the exponential mechanism's law (the Gumbel-max trick); sampled exactly by
 *       {@link ExponentialMechanism}.
 *   <li>{@link Noise#EXPONENTIAL}: one-sided exponential noise of scale 2Δ/ε (Δ/ε monotone), whose
 *       argmax has exactly permute-and-flip's law (Ding, Kifer et al. 2021); sampled exactly by
 *       {@link PermuteAndFlip}.
 * </ul>
 */
public final class ReportNoisyMax implements Mechanism<double[], Integer> {

  /** The noise family. */
  public enum Noise {
    LAPLACE,
    GUMBEL,
    EXPONENTIAL
  }

  private final double epsilon;
  private final double sensitivity;
  private final boolean monotone;
  private final Noise noise;
  private final Grid grid;
  private final DiscreteLaplace latticeNoise;
  private final ExponentialMechanism gumbel;
  private final PermuteAndFlip exponential;

  private ReportNoisyMax(double epsilon, double sensitivity, boolean monotone, Noise noise) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.monotone = monotone;
    this.noise = Require.nonNull("noise", noise);
    this.grid = Grid.finerThan(sensitivity, SnappedLaplace.RESOLUTION_BITS);
    BigInteger steps = grid.indexSensitivity(sensitivity).multiply(BigInteger.valueOf(monotone ? 1 : 2));
    this.latticeNoise =
        new DiscreteLaplace(Rational.of(Rational.of(steps).dividedBy(Rational.exactly(epsilon)).ceil()));
    this.gumbel =
        ExponentialMechanism.of(epsilon, sensitivity, monotone);
    this.exponential = PermuteAndFlip.of(epsilon, sensitivity, monotone);
  }

  /**
   * ε-DP report-noisy-max for utilities of sensitivity Δ with the given noise family;
   * {@code monotone} declares that all utilities move the same way between neighbours (the
   * factor-2 saving).
   */
  public static ReportNoisyMax of(double epsilon, double sensitivity, boolean monotone,
      Noise noise) {
    return new ReportNoisyMax(epsilon, sensitivity, monotone, noise);
  }

  /** The index of the largest noisy utility (non-empty, finite utilities). */
  public int select(double[] utilities, RandomGenerator random) {
    double[] u = QualityGaps.checked(utilities);
    Require.nonNull("random", random);
    switch (noise) {
      case GUMBEL:
        return gumbel.select(u, random);
      case EXPONENTIAL:
        return exponential.select(u, random);
      default:
        int best = -1;
        BigInteger bestValue = null;
        for (int r = 0; r < u.length; r++) {
          BigInteger noisy = grid.index(u[r]).add(latticeNoise.sampleBig(random));
          if (bestValue == null || noisy.compareTo(bestValue) > 0) {
            best = r;
            bestValue = noisy;
          }
        }
        return best;
    }
  }

  @Override
  public Integer release(double[] utilities, RandomGenerator random) {
    return select(utilities, random);
  }

  public double epsilon() {
    return epsilon;
  }

  public double sensitivity() {
    return sensitivity;
  }

  public boolean monotone() {
    return monotone;
  }

  public Noise noise() {
    return noise;
  }

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }
}
