package dev.tradeoff.mechanisms.selection;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.Mechanism;
import dev.tradeoff.mechanisms.sampling.BernoulliExp;
import dev.tradeoff.mechanisms.sampling.Rational;
import java.util.random.RandomGenerator;

/**
 * The exponential mechanism (McSherry and Talwar 2007): given utilities u_1, …, u_n of sensitivity Δ
 * (each utility moves by at most Δ between neighbours), output r with probability proportional to
 * exp(ε·u_r/(2Δ)), or exp(ε·u_r/Δ) when the utilities are monotone (all move in the same direction
 * between neighbours, e.g. counts under add/remove).
 *
 * <p>Sampled exactly (immune to the floating-point attacks on the exponential mechanism, Ilvento
 * 2020): with γ_r = ε(u* − u_r)/(2Δ) computed as an exact rational from the doubles given, propose
 * r uniformly and accept it with probability e^{−γ_r} ({@link
 * BernoulliExp#sampleScaledDifference}, which forms γ_r in long arithmetic when it fits and only
 * for the proposed r). Accepted proposals
 * have law ∝ e^{−γ_r} exactly; the expected number of proposals is n/Σ_r e^{−γ_r} ≤ n, each O(1).
 * This is also the law of report-noisy-max with Gumbel noise of scale 2Δ/ε (the Gumbel-max trick).
 *
 * <p>Guarantee: ε-DP ({@link PureDp}); in the monotone case ε-DP with the factor-2 saving.
 */
public final class ExponentialMechanism implements Mechanism<double[], Integer> {

  private final double epsilon;
  private final double sensitivity;
  private final boolean monotone;
  private final Rational rate;

  private ExponentialMechanism(double epsilon, double sensitivity, boolean monotone) {
    this.epsilon = Require.positive("epsilon", epsilon);
    this.sensitivity = Require.positive("sensitivity", sensitivity);
    this.monotone = monotone;
    this.rate = QualityGaps.rate(epsilon, sensitivity, monotone);
  }

  /** ε-DP selection for utilities of sensitivity Δ. */
  public static ExponentialMechanism of(double epsilon, double sensitivity) {
    return new ExponentialMechanism(epsilon, sensitivity, false);
  }

  /**
   * ε-DP selection for utilities of sensitivity Δ; {@code monotone} declares that all utilities
   * move the same way between neighbours (the factor-2 saving).
   */
  public static ExponentialMechanism of(double epsilon, double sensitivity, boolean monotone) {
    return new ExponentialMechanism(epsilon, sensitivity, monotone);
  }

  /** The selected index in [0, n) for the utilities u (non-empty, finite). */
  public int select(double[] utilities, RandomGenerator random) {
    double[] u = QualityGaps.checked(utilities);
    Require.nonNull("random", random);
    double max = QualityGaps.max(u);
    while (true) {
      int r = random.nextInt(u.length);
      if (BernoulliExp.sampleScaledDifference(random, rate, max, u[r])) {
        return r;
      }
    }
  }

  @Override
  public Integer release(double[] utilities, RandomGenerator random) {
    return select(utilities, random);
  }

  /** The output law Pr[r] ∝ e^{−γ_r}, in double precision (for tests, audits and display). */
  public double[] probabilities(double[] utilities) {
    double[] u = QualityGaps.checked(utilities);
    Rational[] gammas = QualityGaps.of(u, rate);
    double[] p = new double[u.length];
    double total = 0;
    for (int r = 0; r < u.length; r++) {
      p[r] = Math.exp(-gammas[r].doubleValue());
      total += p[r];
    }
    for (int r = 0; r < u.length; r++) {
      p[r] /= total;
    }
    return p;
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
