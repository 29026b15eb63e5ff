package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.random.RandomGenerator;

/**
 * The discrete Gaussian N_Z(0, σ²) on the integers, Pr[Y = y] ∝ e^{−y²/(2σ²)}, for a rational σ²
 * (Canonne, Kamath and Steinke 2020, Algorithm 3).
 *
 * <p>Rejection from the discrete Laplace with scale t = ⌊σ⌋ + 1: a draw Y is accepted with
 * probability exp(−(|Y| − σ²/t)²/(2σ²)), computed as Bernoulli(exp(−γ)) with the exact rational
 * γ = (|Y|·t·d − n)²/(2·n·d·t²) for σ² = n/d. Guarantee: the output law is exactly N_Z(0, σ²) for
 * the rational σ² given; integer arithmetic only; expected O(1) draws (the acceptance probability
 * is bounded below by a constant, [CKS20, Theorem 14]). Adding it to an integer query of sensitivity
 * Δ is (Δ²/(2σ²))-zCDP [CKS20, Theorem 4].
 *
 * @param sigmaSquared σ² &gt; 0
 */
public record DiscreteGaussian(Rational sigmaSquared) {

  public DiscreteGaussian {
    Require.nonNull("sigmaSquared", sigmaSquared);
    Require.that(sigmaSquared.signum() > 0, "sigmaSquared", "must be > 0", sigmaSquared);
  }

  /** N_Z(0, σ²) for a finite σ &gt; 0 given as a double; σ² is the exact square of that double. */
  public static DiscreteGaussian withSigma(double sigma) {
    Require.positive("sigma", sigma);
    Rational s = Rational.exactly(sigma);
    return new DiscreteGaussian(s.times(s));
  }

  /**
   * One draw.
   *
   * @throws ArithmeticException if |y| exceeds {@link Long#MAX_VALUE} (never in practice)
   */
  public long sample(RandomGenerator random) {
    return sampleBig(random).longValueExact();
  }

  /** One draw as a {@link BigInteger}. */
  public BigInteger sampleBig(RandomGenerator random) {
    BigInteger n = sigmaSquared.numerator();
    BigInteger d = sigmaSquared.denominator();
    BigInteger t = n.divide(d).sqrt().add(BigInteger.ONE); // ⌊σ⌋ + 1 = ⌊√⌊σ²⌋⌋ + 1
    DiscreteLaplace proposal = new DiscreteLaplace(Rational.of(t));
    BigInteger gammaDenominator = n.multiply(d).multiply(t).multiply(t).shiftLeft(1);
    BigInteger td = t.multiply(d);
    while (true) {
      BigInteger y = proposal.sampleBig(random);
      BigInteger diff = y.abs().multiply(td).subtract(n);
      if (BernoulliExp.sample(random, diff.multiply(diff), gammaDenominator)) {
        return y;
      }
    }
  }

  /**
   * log Pr[Y = y] in double precision, with the normaliser summed over |y| ≤ σ·40 + 1 (for tests
   * on moderate σ; the omitted mass is below e^{−800}).
   */
  public double logPmf(long y) {
    double s2 = sigmaSquared.doubleValue();
    long limit = (long) Math.ceil(40 * Math.sqrt(s2)) + 1;
    double norm = 0;
    for (long k = -limit; k <= limit; k++) {
      norm += Math.exp(-(double) k * k / (2 * s2));
    }
    return -(double) y * y / (2 * s2) - Math.log(norm);
  }
}
