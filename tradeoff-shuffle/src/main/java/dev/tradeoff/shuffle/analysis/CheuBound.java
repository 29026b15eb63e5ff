package dev.tradeoff.shuffle.analysis;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.util.OptionalDouble;

/**
 * The (ε, δ) bound of Cheu et al. (2019) as quoted by [ShuffleGDP21, Claim C.1]: for
 * |H| &gt; 8 ln(4/δ), C_H is (ε, δ/2)-DP with ε = ln(1 + √(32 ln(4/δ)/|H|)).
 *
 * <p>For the protocol P^{0/1}_{n,λ} the randomizing set H is random, |H| ~ Bin(n, λ/n), and
 * independent of the data. {@link #protocolEpsilon} takes h₀, the largest h with
 * P(|H| &lt; h) ≤ δ/2 (exact binomial tail, log space), and returns ε(h₀): on |H| ≥ h₀ each C_H is
 * (ε(h₀), δ/2)-DP (ε decreases in |H|), the rest has probability ≤ δ/2, so the mixture is
 * (ε(h₀), δ)-DP. Empty when h₀ ≤ 8 ln(4/δ), where Claim C.1 does not apply.
 */
public final class CheuBound {

  private CheuBound() {}

  /** Claim C.1 for a fixed set size: empty unless |H| &gt; 8 ln(4/δ). */
  public static OptionalDouble epsilon(int setSize, double delta) {
    Require.positive("setSize", setSize);
    Require.openUnit("delta", delta);
    double log4OverDelta = Math.log(4 / delta);
    if (setSize <= 8 * log4OverDelta) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Math.log1p(Math.sqrt(32 * log4OverDelta / setSize)));
  }

  /** The protocol-level bound (ε, δ) of the class comment; empty where Claim C.1 does not apply. */
  public static OptionalDouble protocolEpsilon(ShuffleParameters parameters, double delta) {
    Require.nonNull("parameters", parameters);
    Require.openUnit("delta", delta);
    int h0 = lowerQuantile(parameters, delta / 2);
    return h0 < 1 ? OptionalDouble.empty() : epsilon(h0, delta);
  }

  /** The largest h with P(Bin(n, λ/n) &lt; h) ≤ budget. */
  static int lowerQuantile(ShuffleParameters parameters, double budget) {
    int n = parameters.users();
    double q = parameters.randomizationProbability();
    double logBudget = Math.log(budget);
    double logBelow = Double.NEGATIVE_INFINITY; // log P(|H| < h)
    for (int h = 0; h <= n; h++) {
      double next = LogMath.logAddExp(logBelow, LogMath.logBinomialPmf(n, h, q));
      if (next > logBudget) {
        return h;
      }
      logBelow = next;
    }
    return n;
  }
}
