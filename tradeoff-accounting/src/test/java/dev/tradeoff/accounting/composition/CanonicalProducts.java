package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.ExactReferences;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;

/**
 * Test oracles, written independently of the production code. The exact optimal composition of
 * (ε_l, δ_l)-DP mechanisms is the hockey-stick divergence of the product of the canonical pairs
 * P_l = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0), Q_l = (0, (1−δ)/(1+e^ε), (1−δ)e^ε/(1+e^ε), δ)
 * (Kairouz, Oh and Viswanath 2015; Murtagh and Vadhan 2016). Enumerated outcome by outcome.
 */
final class CanonicalProducts {

  private CanonicalProducts() {}

  /** Σ over the 4^k product outcomes of [Π P − e^ε Π Q]_+. */
  static double exactDelta(List<ApproxDp> guarantees, double epsilon) {
    return enumerate(guarantees, 0, 1, 1, Math.exp(epsilon));
  }

  private static double enumerate(
      List<ApproxDp> guarantees, int index, double p, double q, double ratio) {
    if (index == guarantees.size()) {
      return Math.max(0, p - ratio * q);
    }
    ApproxDp g = guarantees.get(index);
    double e = Math.exp(g.epsilon());
    double d = g.delta();
    double[] ps = {d, (1 - d) * e / (1 + e), (1 - d) / (1 + e), 0};
    double[] qs = {0, (1 - d) / (1 + e), (1 - d) * e / (1 + e), d};
    double sum = 0;
    for (int o = 0; o < 4; o++) {
      if (ps[o] > 0) {
        sum += enumerate(guarantees, index + 1, p * ps[o], q * qs[o], ratio);
      }
    }
    return sum;
  }

  /**
   * The exact pure optimal δ of k mechanisms with e^{ε₀} = a/b at e^{ε} = u/v, in rational
   * arithmetic: Σ_i C(k,i) [a^{k−i} b^i v − u a^i b^{k−i}]_+ / (v (a+b)^k).
   */
  static BigDecimal exactPureDelta(int k, long a, long b, BigInteger u, BigInteger v) {
    BigInteger bigA = BigInteger.valueOf(a);
    BigInteger bigB = BigInteger.valueOf(b);
    BigInteger[] powA = powers(bigA, k);
    BigInteger[] powB = powers(bigB, k);
    BigInteger numerator = BigInteger.ZERO;
    BigInteger binomial = BigInteger.ONE;
    for (int i = 0; i <= k; i++) {
      BigInteger term =
          powA[k - i].multiply(powB[i]).multiply(v).subtract(u.multiply(powA[i]).multiply(powB[k - i]));
      if (term.signum() <= 0) {
        break;
      }
      numerator = numerator.add(binomial.multiply(term));
      binomial = binomial.multiply(BigInteger.valueOf(k - i)).divide(BigInteger.valueOf(i + 1));
    }
    BigInteger denominator = v.multiply(bigA.add(bigB).pow(k));
    return new BigDecimal(numerator).divide(new BigDecimal(denominator), new MathContext(40));
  }

  /** Working precision of the arbitrary-precision oracle below: 150 significant digits. */
  private static final MathContext WIDE = new MathContext(150);

  /**
   * The exact optimal δ(ε) of k mechanisms that are each (ε₀, δ₀)-DP, with ε₀, δ₀ and ε the exact
   * values of the doubles given, to about 140 significant digits: [1 − (1 − δ₀)^k] + (1 −
   * δ₀)^k Σ_i C(k,i) [e^{(k−i)ε₀} − e^ε e^{iε₀}]_+ / (1 + e^{ε₀})^k, with e^x from {@link
   * ExactReferences#exp} and the powers by repeated multiplication.
   */
  static BigDecimal exactDelta(double epsilon0, double delta0, int k, double epsilon) {
    BigDecimal base = ExactReferences.exp(new BigDecimal(epsilon0), WIDE);
    BigDecimal ratio = ExactReferences.exp(new BigDecimal(epsilon), WIDE);
    BigDecimal[] pow = new BigDecimal[k + 1];
    pow[0] = BigDecimal.ONE;
    for (int i = 1; i <= k; i++) {
      pow[i] = pow[i - 1].multiply(base, WIDE);
    }
    BigDecimal numerator = BigDecimal.ZERO;
    BigInteger binomial = BigInteger.ONE;
    for (int i = 0; i <= k; i++) {
      BigDecimal term = pow[k - i].subtract(ratio.multiply(pow[i], WIDE), WIDE);
      if (term.signum() <= 0) {
        break;
      }
      numerator = numerator.add(new BigDecimal(binomial).multiply(term, WIDE), WIDE);
      binomial = binomial.multiply(BigInteger.valueOf(k - i)).divide(BigInteger.valueOf(i + 1));
    }
    BigDecimal pure = numerator.divide(BigDecimal.ONE.add(base).pow(k, WIDE), WIDE);
    BigDecimal noFailure = BigDecimal.ONE.subtract(new BigDecimal(delta0)).pow(k, WIDE);
    return BigDecimal.ONE.subtract(noFailure).add(noFailure.multiply(pure, WIDE), WIDE);
  }

  private static BigInteger[] powers(BigInteger base, int k) {
    BigInteger[] powers = new BigInteger[k + 1];
    powers[0] = BigInteger.ONE;
    for (int i = 1; i <= k; i++) {
      powers[i] = powers[i - 1].multiply(base);
    }
    return powers;
  }
}
