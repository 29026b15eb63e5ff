package dev.tradeoff.beam.histogram;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.gaussian.DiscreteGaussianMechanism;
import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.DiscreteLaplaceMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import java.io.Serializable;
import java.util.random.RandomGenerator;

/**
 * The noise added to every count of a {@link PrivateHistogram}, with the parameters that calibrate
 * it, for a histogram in which one privacy unit changes at most {@code l0} counts by at most 1 each
 * (L1 sensitivity l0, L2 sensitivity √l0).
 *
 * <p>One histogram is one release of the vector mechanism: Laplace with scale l0/ε is ε-DP for L1
 * sensitivity l0 (Dwork and Roth, Theorem 3.6); Gaussian calibrated by the analytic Gaussian for
 * L2 sensitivity √l0 (Balle and Wang 2018) is (ε, δ)-DP; the discrete Laplace with scale l0/ε is
 * ε-DP; the discrete Gaussian with σ for integer L2 sensitivity ⌈√l0⌉ is ρ-zCDP (Canonne, Kamath and
 * Steinke 2020, Theorem 4; rounding √l0 up to an integer only adds noise). The mechanisms are those
 * of {@code tradeoff-mechanisms}; their event is the histogram's event.
 *
 * @param kind the noise distribution
 * @param epsilon ε (Laplace kinds and Gaussian)
 * @param delta δ (Gaussian only; 0 otherwise)
 * @param rho ρ (discrete Gaussian only; 0 otherwise)
 * @param l0 the largest number of counts one privacy unit may change
 */
public record HistogramNoise(Kind kind, double epsilon, double delta, double rho, int l0)
    implements Serializable {

  /** The distributions. */
  public enum Kind {
    LAPLACE, GAUSSIAN, DISCRETE_LAPLACE, DISCRETE_GAUSSIAN
  }

  public HistogramNoise {
    Require.nonNull("kind", kind);
    Require.positive("l0", l0);
    switch (kind) {
      case LAPLACE, DISCRETE_LAPLACE -> Require.positive("epsilon", epsilon);
      case GAUSSIAN -> {
        Require.positive("epsilon", epsilon);
        Require.openUnit("delta", delta);
      }
      case DISCRETE_GAUSSIAN -> Require.positive("rho", rho);
    }
  }

  /** Laplace noise, ε-DP per histogram. */
  public static HistogramNoise laplace(double epsilon, int l0) {
    return new HistogramNoise(Kind.LAPLACE, epsilon, 0, 0, l0);
  }

  /** Gaussian noise, (ε, δ)-DP per histogram. */
  public static HistogramNoise gaussian(double epsilon, double delta, int l0) {
    return new HistogramNoise(Kind.GAUSSIAN, epsilon, delta, 0, l0);
  }

  /** Discrete Laplace noise, ε-DP per histogram. */
  public static HistogramNoise discreteLaplace(double epsilon, int l0) {
    return new HistogramNoise(Kind.DISCRETE_LAPLACE, epsilon, 0, 0, l0);
  }

  /** Discrete Gaussian noise, ρ-zCDP per histogram. */
  public static HistogramNoise discreteGaussian(double rho, int l0) {
    return new HistogramNoise(Kind.DISCRETE_GAUSSIAN, 0, 0, rho, l0);
  }

  private long integerL2() {
    long s = (long) Math.ceil(Math.sqrt(l0));
    while (s * s < l0) {
      s++;
    }
    return s;
  }

  /** A noisy-count function built on a worker (the mechanisms are not serializable). */
  Noiser noiser() {
    return switch (kind) {
      case LAPLACE -> {
        LaplaceMechanism m = LaplaceMechanism.of(epsilon, l0);
        yield (count, random) -> m.release((double) count, random);
      }
      case GAUSSIAN -> {
        GaussianMechanism m = GaussianMechanism.of(epsilon, delta, Math.sqrt(l0));
        yield (count, random) -> m.release((double) count, random);
      }
      case DISCRETE_LAPLACE -> {
        DiscreteLaplaceMechanism m = DiscreteLaplaceMechanism.of(epsilon, l0);
        yield (count, random) -> (double) m.release(count, random);
      }
      case DISCRETE_GAUSSIAN -> {
        DiscreteGaussianMechanism m = DiscreteGaussianMechanism.forZcdp(rho, integerL2());
        yield (count, random) -> (double) m.release(count, random);
      }
    };
  }

  /** The accounting event of one histogram. */
  public DpEvent event() {
    return switch (kind) {
      case LAPLACE -> LaplaceMechanism.of(epsilon, l0).event();
      case GAUSSIAN -> GaussianMechanism.of(epsilon, delta, Math.sqrt(l0)).event();
      case DISCRETE_LAPLACE -> DiscreteLaplaceMechanism.of(epsilon, l0).event();
      case DISCRETE_GAUSSIAN -> DiscreteGaussianMechanism.forZcdp(rho, integerL2()).event();
    };
  }

  /** Adds noise to one count. */
  @FunctionalInterface
  interface Noiser {
    double noisy(long count, RandomGenerator random);
  }
}
