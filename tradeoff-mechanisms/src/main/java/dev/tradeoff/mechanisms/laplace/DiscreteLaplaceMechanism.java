package dev.tradeoff.mechanisms.laplace;

import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.DirectedRounding;
import dev.tradeoff.mechanisms.IntegerNoiseMechanism;
import dev.tradeoff.mechanisms.sampling.DiscreteLaplace;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.random.RandomGenerator;

/**
 * The discrete Laplace (geometric) mechanism (Ghosh, Roughgarden and Sundararajan 2009; sampled as
 * in Canonne, Kamath and Steinke 2020, Algorithm 2) for an integer query of integer sensitivity Δ:
 * f(D) + Y with Pr[Y = y] ∝ e^{−ε|y|/Δ}, the scale Δ/ε held as an exact rational.
 *
 * <p>Guarantee: exactly ε-DP. The accounting event is {@link DiscreteLaplaceEvent} with scale 1/ε
 * (rounded down, so an accountant sees at most the true noise) when Δ = 1, and
 * {@code GuaranteeEvent(PureDp(ε))} otherwise (a discrete Laplace on a query of sensitivity Δ &gt; 1
 * is not the sensitivity-1 mechanism at scale 1/ε).
 */
public final class DiscreteLaplaceMechanism implements IntegerNoiseMechanism {

  private final double epsilon;
  private final long sensitivity;
  private final DiscreteLaplace noise;

  private DiscreteLaplaceMechanism(double epsilon, long sensitivity) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.noise =
        new DiscreteLaplace(Rational.of(sensitivity, 1).dividedBy(Rational.exactly(epsilon)));
  }

  /** ε-DP discrete Laplace noise for an integer query of integer sensitivity Δ ≥ 1. */
  public static DiscreteLaplaceMechanism of(double epsilon, long sensitivity) {
    return new DiscreteLaplaceMechanism(epsilon, sensitivity);
  }

  /** f(D) + Y, clamped to the long range (see {@link IntegerNoiseMechanism#release}). */
  @Override
  public long release(long value, RandomGenerator random) {
    Require.nonNull("random", random);
    return IntegerNoiseMechanism.saturatedSum(value, noise.sampleBig(random));
  }

  /** The exact noise law. */
  public DiscreteLaplace noise() {
    return noise;
  }

  public double epsilon() {
    return epsilon;
  }

  public long sensitivity() {
    return sensitivity;
  }

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }

  @Override
  public DpEvent event() {
    return sensitivity == 1
        ? new DiscreteLaplaceEvent(DirectedRounding.quotientDown(1, epsilon))
        : new GuaranteeEvent(guarantee());
  }
}
