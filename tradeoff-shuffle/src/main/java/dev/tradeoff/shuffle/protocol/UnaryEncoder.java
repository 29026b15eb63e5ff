package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The encoder E_r of [ShuffleGDP21, Algorithm 2] (Cheu et al. 2019): a value x in [0, 1] becomes r
 * bits b_1 … b_r with μ = ⌈x r⌉, b_j = 1 for j &lt; μ, b_μ ~ Ber(x r − μ + 1) and b_j = 0 for j &gt; μ,
 * so that E[Σ_j b_j] = x r exactly (for x = 0, μ = 0 and every bit is 0).
 */
public final class UnaryEncoder {

  private final int bits;

  /** @param bits r ≥ 1 */
  public UnaryEncoder(int bits) {
    this.bits = Require.positive("bits", bits);
  }

  /** The r bits encoding x in [0, 1]. */
  public int[] encode(double x, RandomGenerator random) {
    Require.probability("x", x);
    Require.nonNull("random", random);
    int mu = (int) Math.ceil(x * bits);
    double p = x * bits - mu + 1;
    int[] b = new int[bits];
    for (int j = 1; j <= bits; j++) {
      if (j < mu) {
        b[j - 1] = 1;
      } else if (j == mu) {
        b[j - 1] = random.nextDouble() < p ? 1 : 0;
      }
    }
    return b;
  }

  /**
   * The probability that bit j (1-based) of the encoding of x is 1: 1 below μ, x r − μ + 1 at μ and
   * 0 above.
   */
  public double oneProbability(double x, int j) {
    Require.probability("x", x);
    Require.inClosedRange("j", j, 1, bits);
    int mu = (int) Math.ceil(x * bits);
    if (j < mu) {
      return 1;
    }
    return j == mu ? x * bits - mu + 1 : 0;
  }

  public int bits() {
    return bits;
  }
}
