package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The exponential distribution Exp_λ with density λe^{−λx} on x &gt; 0 (the notation of Wu et al.,
 * "Ex-post private hyperparameter tuning", Section 2; Theorem 13 draws its dropping level from
 * Exp_{ε′}).
 *
 * <p>A real-valued law cannot be sampled exactly in doubles. This sampler splits E ~ Exp_1 into its
 * integer part ⌊E⌋ ~ Geom_{e^{−1}}, drawn exactly with {@link Geometric}, and its fractional part,
 * independent with density e^{−x}/(1 − e^{−1}) on [0, 1), drawn by inversion as
 * −log1p(−U(1 − e^{−1})) from a uniform U on the 2^−53 grid of [0, 1); the result is (⌊E⌋ + frac)/λ.
 * Guarantee: no log(0) and no overflow for any λ &gt; 0 (the log argument is at least e^{−1});
 * the integer part is exact, and the fractional part has relative error of a few ulps and
 * resolution 2^−53, so the CDF is within about 2^−52 of Exp_λ's everywhere. Tail events are
 * therefore sampled correctly however small λ is (mean 1/λ in the thousands is routine). Use the
 * exact {@link Geometric} where privacy depends on the exact law.
 *
 * @param rate λ &gt; 0
 */
public record Exponential(double rate) {

  private static final double ONE_MINUS_INV_E = -Math.expm1(-1);
  private static final Geometric INTEGER_PART = new Geometric(Rational.ONE);

  public Exponential {
    Require.positive("rate", rate);
  }

  /** One draw x &gt;= 0. */
  public double sample(RandomGenerator random) {
    long whole = INTEGER_PART.sample(random);
    double u = (random.nextLong() >>> 11) * 0x1.0p-53;
    double fraction = -Math.log1p(-u * ONE_MINUS_INV_E);
    return (whole + fraction) / rate;
  }
}
