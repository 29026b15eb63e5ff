package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The discrete Gaussian N_Z(0, σ²) on the integers, Pr[Y = y] ∝ e^{−y²/(2σ²)}, for a rational σ²
 * (Canonne, Kamath and Steinke 2020, Algorithm 3).
 *
 * <p>Rejection from a discrete Laplace proposal with scale t: a draw Y is accepted with probability
 * exp(−(|Y| − σ²/t)²/(2σ²)). For every t &gt; 0 the accepted law is exactly N_Z(0, σ²), since
 * e^{−|y|/t}·e^{−(|y| − σ²/t)²/(2σ²)} = e^{−y²/(2σ²)}·e^{−σ²/(2t²)} and the last factor does not
 * depend on y (the acceptance probability is at most 1 because the exponent is ≤ 0). [CKS20,
 * Algorithm 1] draws Bernoulli(e^{−γ′}) for γ′ ∈ [0, 1] exactly from any coins A_k that are
 * independent with Pr[A_k] = γ′/k, however each coin is produced. Two choices of t:
 *
 * <ul>
 *   <li><b>σ rational</b> (σ² the square of p/q in lowest terms — always so for {@link
 *       #withSigma(double)}, whose σ² is the exact square of a double, and for the lattice
 *       samplers, whose σ is a whole number of steps): t = σ. The acceptance exponent is
 *       γ = a²/(2p²) with a = |q|Y| − p|, an integer. Let c = max(1, ⌈a/p⌉), so a ≤ pc; then
 *       e^{−γ} = (e^{−γ/c²})^{c²} with γ/c² = a²/(2p²c²) ≤ 1/2, and each factor is [CKS20,
 *       Algorithm 1] for γ′ = γ/c², whose coin Bernoulli(γ′/k) is drawn as Bernoulli(a/(pc)) ∧
 *       Bernoulli(a/(2pck)): two independent coins whose probabilities, both in [0, 1], multiply
 *       to γ′/k. The accepted law is unchanged; no number larger than max(pc, 2pck) arises, so for
 *       the lattice Gaussian's σ ≈ 2^42 (where γ's own numerator and denominator have about 170
 *       bits) every draw stays in long arithmetic. The long path is taken when p, q and every
 *       bound fit in 62 bits, and it draws exactly what the {@link BigInteger} path draws from the
 *       same stream (tested bit for bit): both decide each coin by one {@code nextLong(bound)}
 *       while the bound has at most 62 bits.
 *   <li><b>otherwise</b>: t = ⌊σ⌋ + 1 as in [CKS20, Algorithm 3], with the exact rational
 *       γ = (|Y|·t·d − n)²/(2·n·d·t²) for σ² = n/d, in {@link BigInteger} arithmetic.
 * </ul>
 *
 * <p>Guarantee: the output law is exactly N_Z(0, σ²) for the rational σ² given; integer arithmetic
 * only; expected O(1) draws (acceptance probability about e^{−1/2}·√(π/2) ≈ 0.76 for large σ with
 * t = σ, bounded below by a constant for t = ⌊σ⌋ + 1 [CKS20, Theorem 14]). Adding it to an integer
 * query of sensitivity Δ is (Δ²/(2σ²))-zCDP [CKS20, Theorem 4].
 */
public final class DiscreteGaussian {

  /** Numbers below 2^62 take the long path (as {@code nextLong(bound)} draws do). */
  private static final long LONG_LIMIT = 1L << 62;

  private final Rational sigmaSquared;
  /** σ = p/q when σ² is a rational square, else null. */
  private final BigInteger p;
  private final BigInteger q;
  private final boolean longPath;
  private final long pLong;
  private final long qLong;
  private final DiscreteLaplace proposal;

  /** @param sigmaSquared σ² &gt; 0 */
  public DiscreteGaussian(Rational sigmaSquared) {
    Require.nonNull("sigmaSquared", sigmaSquared);
    Require.that(sigmaSquared.signum() > 0, "sigmaSquared", "must be > 0", sigmaSquared);
    this.sigmaSquared = sigmaSquared;
    BigInteger n = sigmaSquared.numerator();
    BigInteger d = sigmaSquared.denominator();
    BigInteger rootN = n.sqrt();
    BigInteger rootD = d.sqrt();
    if (rootN.multiply(rootN).equals(n) && rootD.multiply(rootD).equals(d)) {
      this.p = rootN;
      this.q = rootD;
      this.proposal = new DiscreteLaplace(new Rational(rootN, rootD));
      this.longPath = rootN.bitLength() < 62 && rootD.bitLength() < 62;
      this.pLong = longPath ? rootN.longValue() : 0;
      this.qLong = longPath ? rootD.longValue() : 0;
    } else {
      this.p = null;
      this.q = null;
      this.proposal = new DiscreteLaplace(Rational.of(n.divide(d).sqrt().add(BigInteger.ONE)));
      this.longPath = false;
      this.pLong = 0;
      this.qLong = 0;
    }
  }

  /** N_Z(0, σ²) for a finite σ &gt; 0 given as a double; σ² is the exact square of that double. */
  public static DiscreteGaussian withSigma(double sigma) {
    Require.positive("sigma", sigma);
    Rational s = Rational.exactly(sigma);
    return new DiscreteGaussian(s.times(s));
  }

  /** σ², exactly. */
  public Rational sigmaSquared() {
    return sigmaSquared;
  }

  /**
   * One draw.
   *
   * @throws ArithmeticException if |y| exceeds {@link Long#MAX_VALUE} (never in practice)
   */
  public long sample(RandomGenerator random) {
    try {
      return sampleLong(random);
    } catch (BeyondLong beyond) {
      throw new ArithmeticException("discrete Gaussian draw beyond the long range: " + beyond.value());
    }
  }

  /** One draw as a {@link BigInteger}. */
  public BigInteger sampleBig(RandomGenerator random) {
    try {
      return BigInteger.valueOf(sampleLong(random));
    } catch (BeyondLong beyond) {
      return beyond.value();
    }
  }

  /**
   * One draw as a long, a draw beyond the long range thrown as {@link BeyondLong}; in long
   * arithmetic on the long path (see the class comment), with the same draws and value as the
   * {@link BigInteger} arithmetic.
   */
  long sampleLong(RandomGenerator random) {
    while (true) {
      long y;
      try {
        y = proposal.sampleLong(random);
      } catch (BeyondLong beyond) {
        if (accept(random, beyond.value().abs())) {
          throw beyond;
        }
        continue;
      }
      if (longPath ? acceptLong(random, Math.abs(y)) : accept(random, BigInteger.valueOf(y).abs())) {
        return y;
      }
    }
  }

  /** {@link #accept} for |Y| = m on the long path: q·m − p in longs when q·m &lt; 2^62. */
  private boolean acceptLong(RandomGenerator random, long m) {
    long qm = qLong * m;
    if (Math.multiplyHigh(qLong, m) == 0 && qm >= 0 && qm < LONG_LIMIT) {
      return acceptSquareLong(random, Math.abs(qm - pLong), pLong);
    }
    return acceptSquareBig(random, q.multiply(BigInteger.valueOf(m)).subtract(p).abs(), p);
  }

  /** Whether the proposal |Y| = {@code magnitude} is accepted, in {@link BigInteger} arithmetic. */
  private boolean accept(RandomGenerator random, BigInteger magnitude) {
    if (p == null) {
      BigInteger n = sigmaSquared.numerator();
      BigInteger d = sigmaSquared.denominator();
      BigInteger t = proposal.scale().numerator();
      BigInteger diff = magnitude.multiply(t).multiply(d).subtract(n);
      return BernoulliExp.sample(
          random, diff.multiply(diff), n.multiply(d).multiply(t).multiply(t).shiftLeft(1));
    }
    if (longPath && magnitude.bitLength() < 63) {
      return acceptLong(random, magnitude.longValue());
    }
    return acceptSquareBig(random, q.multiply(magnitude).subtract(p).abs(), p);
  }

  /**
   * e^{−a²/(2p²)} as c² runs of [CKS20, Algorithm 1] with split coins, in longs; 0 ≤ a, p &lt; 2^62,
   * p &gt; 0. Before each index k of a run the bound 2pck is checked against 2^62 (its 128-bit
   * product has a zero high word and a low word in [0, 2^62)); if it would reach it (or pc or c² is
   * too large to start with), the draw continues in {@link #finishSquareBig} from that very index,
   * which draws the same coins from there.
   */
  static boolean acceptSquareLong(RandomGenerator random, long a, long p) {
    if (a == 0) {
      return true;
    }
    long c = a <= p ? 1 : a / p + (a % p == 0 ? 0 : 1); // max(1, ⌈a/p⌉) ≤ a, no overflow
    long pc = p * c; // < a + p < 2^63
    if (pc >= LONG_LIMIT || c >= 1L << 31) {
      return acceptSquareBig(random, BigInteger.valueOf(a), BigInteger.valueOf(p));
    }
    long runs = c * c; // < 2^62
    long twoPc = pc << 1; // < 2^63
    for (long run = 0; run < runs; run++) {
      for (long k = 1; ; k++) {
        long bound = twoPc * k; // 2pck, used only when it is below 2^62
        if (Math.multiplyHigh(twoPc, k) != 0 || bound < 0 || bound >= LONG_LIMIT) {
          return finishSquareBig(random, BigInteger.valueOf(a), BigInteger.valueOf(p),
              BigInteger.valueOf(c), BigInteger.valueOf(runs - run), k);
        }
        if (random.nextLong(pc) >= a || random.nextLong(bound) >= a) {
          if ((k & 1) == 0) {
            return false; // this run ended at an even index: e^{−γ/c²} failed
          }
          break;
        }
      }
    }
    return true;
  }

  /** The same draw as {@link #acceptSquareLong} in {@link BigInteger} arithmetic; a ≥ 0, p &gt; 0. */
  static boolean acceptSquareBig(RandomGenerator random, BigInteger a, BigInteger p) {
    if (a.signum() == 0) {
      return true;
    }
    BigInteger[] qr = a.divideAndRemainder(p);
    BigInteger c = qr[0].add(qr[1].signum() == 0 ? BigInteger.ZERO : BigInteger.ONE).max(BigInteger.ONE);
    return finishSquareBig(random, a, p, c, c.multiply(c), 1);
  }

  /**
   * {@code runs} runs of [CKS20, Algorithm 1] with split coins Bernoulli(a/(pc)) ∧
   * Bernoulli(a/(2pck)), the first of them starting at index {@code firstK} (no coin of that index
   * drawn yet); true when every run ends at an odd index.
   */
  private static boolean finishSquareBig(
      RandomGenerator random, BigInteger a, BigInteger p, BigInteger c, BigInteger runs, long firstK) {
    BigInteger pc = p.multiply(c);
    BigInteger twoPc = pc.shiftLeft(1);
    BigInteger k = BigInteger.valueOf(firstK);
    for (BigInteger run = BigInteger.ZERO; run.compareTo(runs) < 0; run = run.add(BigInteger.ONE)) {
      while (UniformIntegers.bernoulli(random, a, pc)
          && UniformIntegers.bernoulli(random, a, twoPc.multiply(k))) {
        k = k.add(BigInteger.ONE);
      }
      if (!k.testBit(0)) {
        return false;
      }
      k = BigInteger.ONE;
    }
    return true;
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

  @Override
  public boolean equals(Object other) {
    return other instanceof DiscreteGaussian g && g.sigmaSquared.equals(sigmaSquared);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sigmaSquared);
  }

  @Override
  public String toString() {
    return "DiscreteGaussian[sigmaSquared=" + sigmaSquared + "]";
  }
}
