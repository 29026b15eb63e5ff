package dev.tradeoff.mechanisms.selection;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.random.RandomGenerator;

/**
 * Permute-and-flip (McKenna and Sheldon 2020, Algorithm 1): visit the candidates in a uniformly
 * random order and stop at the first r whose coin Bernoulli(exp(ε(u_r − u*)/(2Δ))) lands heads
 * (exp(ε(u_r − u*)/Δ) for monotone utilities). A best candidate's coin is certain, so it stops.
 *
 * <p>Exact: the random order is an incremental Fisher–Yates shuffle on exact uniform integers and
 * each coin is {@link BernoulliExp} on the exact rational exponent. Guarantee: ε-DP (McKenna and
 * Sheldon 2020, Theorem 1), never worse in expected utility than the exponential mechanism. Its law
 * equals report-noisy-max with one-sided exponential noise of scale 2Δ/ε (Ding, Kifer et al. 2021).
 */
public final class PermuteAndFlip implements Mechanism<double[], Integer> {

  private final double epsilon;
  private final double sensitivity;
  private final boolean monotone;
  private final Rational rate;

  private PermuteAndFlip(double epsilon, double sensitivity, boolean monotone) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.monotone = monotone;
    this.rate = QualityGaps.rate(epsilon, sensitivity, monotone);
  }

  /** ε-DP permute-and-flip for utilities of sensitivity Δ. */
  public static PermuteAndFlip of(double epsilon, double sensitivity, boolean monotone) {
    return new PermuteAndFlip(epsilon, sensitivity, monotone);
  }

  /** The selected index in [0, n). */
  public int select(double[] utilities, RandomGenerator random) {
    double[] u = QualityGaps.checked(utilities);
    Require.nonNull("random", random);
    Rational[] gammas = QualityGaps.of(u, rate);
    int[] order = new int[u.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    for (int i = 0; i < order.length; i++) {
      int j = i + random.nextInt(order.length - i);
      int r = order[j];
      order[j] = order[i];
      order[i] = r;
      if (BernoulliExp.sample(random, gammas[r])) {
        return r;
      }
    }
    throw new IllegalStateException("unreachable: a best candidate always flips heads");
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

  @Override
  public PureDp guarantee() {
    return new PureDp(epsilon);
  }

}
