package dev.tradeoff.selection.expost;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.OptionalLong;

/**
 * The repetition count of [ExPost25, Theorem 12]: listing mechanism i
 *
 * <pre>  T_i = ⌈ (1/a)·(2/β)^{ε_i/ε′}·ln(2/β) ⌉  </pre>
 *
 * times in Algorithm 3 with Geom_{e^{−ε′}} dropping makes the output at least as good as (o*, 0)
 * with probability ≥ 1 − β whenever Pr[M_{i*}(D) ≥ o*] ≥ a (the paper calls a "α"). T_i overflows a
 * double as soon as (ε_i/ε′)·ln(2/β) exceeds about 709 (ε_i/ε′ = 100 with β = 0.01 already gives
 * 10^230), so it is held by its natural logarithm; {@link #ceiling()} is exact up to the ~16
 * significant digits of that logarithm and then rounded up.
 *
 * @param logValue ln of the real number inside the ceiling
 */
public record RepetitionCount(double logValue) {

  public RepetitionCount {
    Require.finite("logValue", logValue);
  }

  /**
   * Theorem 12's T_i.
   *
   * @param successProbability a in (0, 1): Pr[M_{i*}(D) ≥ o*] ≥ a
   * @param failureProbability β in (0, 1)
   * @param epsilon ε_i &gt; 0
   * @param epsilonPrime ε′ &gt; 0
   */
  public static RepetitionCount of(
      double successProbability, double failureProbability, double epsilon, double epsilonPrime) {
    Require.openUnit("successProbability", successProbability);
    Require.openUnit("failureProbability", failureProbability);
    Require.positive("epsilon", epsilon);
    Require.positive("epsilonPrime", epsilonPrime);
    double log2OverBeta = Math.log(2 / failureProbability);
    return new RepetitionCount(
        -Math.log(successProbability)
            + (epsilon / epsilonPrime) * log2OverBeta
            + Math.log(log2OverBeta));
  }

  /** log10 of the value inside the ceiling, for display. */
  public double log10() {
    return logValue / Math.log(10);
  }

  /** T_i when it fits in a long. */
  public OptionalLong asLong() {
    if (logValue > 43.6) { // e^43.6 ≈ 8.6e18 < Long.MAX_VALUE ≈ 9.2e18
      return OptionalLong.empty();
    }
    return OptionalLong.of(ceiling().longValueExact());
  }

  /**
   * T_i as an integer: ⌈e^{logValue}⌉ computed from e^{logValue} = 2^m·e^{r} with r in [0, ln 2),
   * rounded up.
   *
   * @throws ArithmeticException if T_i has more than 2^24 bits (use {@link #logValue()})
   */
  public BigInteger ceiling() {
    if (logValue <= 0) {
      return BigInteger.ONE; // ⌈x⌉ = 1 for x in (0, 1]
    }
    long m = (long) Math.floor(logValue / Math.log(2));
    if (m > (1 << 24)) {
      throw new ArithmeticException("T_i = e^" + logValue + " has more than 2^24 bits");
    }
    double r = logValue - m * Math.log(2);
    BigDecimal mantissa = new BigDecimal(Math.exp(r));
    BigDecimal value =
        mantissa.multiply(new BigDecimal(BigInteger.TWO.pow((int) m)), MathContext.UNLIMITED);
    return value.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
  }
}
