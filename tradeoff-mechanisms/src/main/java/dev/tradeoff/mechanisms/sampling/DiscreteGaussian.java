package dev.tradeoff.mechanisms.sampling;

import dev.tradeoff.accounting.internal.Require;
import java.math.BigInteger;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The discrete Gaussian N_Z(0, σ²) on the integers, Pr[Y = y] ∝ e^{−y²/(2σ²)}, for a rational σ²,
 * sampled exactly in integer arithmetic by Karney's discrete normal algorithm (C. F. F. Karney,
 * "Sampling exactly from the normal distribution", ACM Trans. Math. Softw. 42(1), 2016, Algorithm D
 * with μ = 0), whose Bernoulli steps are drawn as below.
 *
 * <p>One round, with σ² = n/d:
 *
 * <ol>
 *   <li>K ≥ 0 with Pr[K = k] = (1 − e^{−1/2})·e^{−k/2} ({@link HalfExponentials#geometric}: one
 *       32-bit uniform compared with the exact digits of e^{−v/2});
 *   <li>keep k with probability e^{−k(k−1)/2} ({@link HalfExponentials#bernoulli}; no draw for k ≤
 *       1); after steps 1–2 Pr[k] ∝ e^{−k/2}·e^{−k(k−1)/2} = e^{−k²/2};
 *   <li>V uniform on {0, …, 2⌈σ⌉ − 1}, split into J = ⌊V/2⌋, uniform on {0, …, ⌈σ⌉ − 1}, and a
 *       fair sign s = −1 for odd V, independent of J (each pair (J, s) is one V); i = ⌈kσ⌉ + J;
 *       reject unless i &lt; (k + 1)σ;
 *   <li>accept with probability e^{−γ}, γ = x(2k + x)/2 for x = i/σ − k ∈ [0, 1), that is
 *       γ = (i²/σ² − k²)/2 = (i²d − k²n)/(2n), a rational below k + 1/2;
 *   <li>reject i = 0 with s = −1 (0 would otherwise be counted twice); output s·i.
 * </ol>
 *
 * <p>(Drawing s with J rather than after step 4 saves a call per accepted round and costs one bit
 * per rejected one; s is independent of steps 1–4 either way, so the law below is unchanged.)
 *
 * <p><b>Why the law is exact.</b> Every integer i ≥ 0 has exactly one k with kσ ≤ i &lt; (k + 1)σ,
 * namely ⌊i/σ⌋, and for it J = i − ⌈kσ⌉ lies in {0, …, ⌈σ⌉ − 1} (since i − ⌈kσ⌉ &lt; (k+1)σ − kσ =
 * σ ≤ ⌈σ⌉); a pair (k, J) that step 3 keeps determines i, and step 3 keeps exactly these pairs. So
 * a round outputs s·i with probability (1 − e^{−1/2})·e^{−k²/2}·(1/⌈σ⌉)·e^{−x(2k+x)/2}·(1/2) =
 * C·e^{−(k+x)²/2} = C·e^{−i²/(2σ²)}, with C the same for every i and s (for i = 0 only s = +1
 * counts). Rounds are independent, so the first accepted round has law ∝ e^{−y²/(2σ²)} on ℤ. A
 * round accepts with probability (1 − e^{−1/2})·Σ_y e^{−y²/(2σ²)}/(2⌈σ⌉): about (1 − e^{−1/2})·√(π/2)
 * ≈ 0.49 for a large whole σ, and at least (1 − e^{−1/2})·3/8 ≈ 0.147 for every σ (the sum is at
 * least max(1, √(2π)σ − 1) and ⌈σ⌉ ≤ σ + 1), so the expected work is O(1) whatever σ.
 *
 * <p><b>Step 4 by one comparison.</b> The acceptance is one {@link HalfExponentials#bernoulli(
 * RandomGenerator, double, java.util.function.Supplier)}: a uniform U, revealed 32 bits at a time,
 * compared with the exact binary expansion of e^{−γ}, so Pr[accept] = e^{−γ} exactly (proof there).
 * When σ = p/q is rational (σ² the square of a rational — always so for {@link
 * #withSigma(double)}, whose σ² is the exact square of a double, and for the lattice samplers,
 * whose σ is a whole number of steps), γ = x(2k + x)/2 with x = a/p for the integer a = qi − kp ∈
 * [0, p); for σ² not a rational square γ = (i²d − k²n)/(2n). The first 32 digits of e^{−γ} come from
 * a double approximation of γ whenever it certifies them (relative error at most 8·2^−53 here, the
 * comparison needs 2^−49), and from the exact rational γ otherwise, so the common case is a few
 * floating-point operations on numbers that name an exact integer — never a rounded probability.
 * (This replaced k + 1 runs of [CKS20, Algorithm 1] with two coins per index, about 3.3 uniform
 * draws and as many unpredictable branches per round for the Gaussian mechanism's σ ≈ 2^42.)
 *
 * <p><b>Long and BigInteger paths.</b> For σ = p/q with p, q &lt; 2^61 a round runs in longs while
 * k·p and q·i stay below 2^62 and in {@link BigInteger}s otherwise; both draw V by one {@code
 * nextLong(2⌈σ⌉)} and step 4 by the same comparison with the same exact digits, so they draw the
 * same bits and give the same value (tested draw for draw).
 *
 * <p>Guarantee: the output law is exactly N_Z(0, σ²) for the rational σ² given; every decision is
 * an exact comparison of integers. Adding it to an integer query of sensitivity Δ is
 * (Δ²/(2σ²))-zCDP [CKS20, Theorem 4].
 */
public final class DiscreteGaussian {

  /** Numbers below 2^62 take the long path. */
  private static final long LONG_LIMIT = 1L << 62;

  /** Marks a rejected round in the long path (a magnitude is never negative). */
  private static final long REJECTED = -1;

  private final Rational sigmaSquared;
  /** σ = p/q when σ² is a rational square, else null. */
  private final BigInteger p;
  private final BigInteger q;
  /** 2⌈σ⌉. */
  private final BigInteger twiceCeilSigma;
  private final boolean longPath;
  private final long pLong;
  private final long qLong;
  /** 2⌈σ⌉ on the long path (below 2^62 there: ⌈σ⌉ ≤ p &lt; 2^61). */
  private final long twiceCeilSigmaLong;
  /** ⌈kσ⌉ for k &lt; {@link #CEIL_TABLE} on the long path (Pr[K ≥ 32] = e^{−16}). */
  private final long[] ceilKSigma;

  private static final int CEIL_TABLE = 32;

  /** @param sigmaSquared σ² &gt; 0 */
  public DiscreteGaussian(Rational sigmaSquared) {
    Require.nonNull("sigmaSquared", sigmaSquared);
    Require.that(sigmaSquared.signum() > 0, "sigmaSquared", "must be > 0", sigmaSquared);
    this.sigmaSquared = sigmaSquared;
    BigInteger n = sigmaSquared.numerator();
    BigInteger d = sigmaSquared.denominator();
    BigInteger rootN = n.sqrt();
    BigInteger rootD = d.sqrt();
    BigInteger ceilSigma;
    if (rootN.multiply(rootN).equals(n) && rootD.multiply(rootD).equals(d)) {
      this.p = rootN;
      this.q = rootD;
      ceilSigma = ceilDivide(rootN, rootD);
    } else {
      this.p = null;
      this.q = null;
      ceilSigma = ceilSqrt(n, d, BigInteger.ONE);
    }
    this.longPath = p != null && p.bitLength() < 62 && q.bitLength() < 62;
    this.pLong = longPath ? p.longValue() : 0;
    this.qLong = longPath ? q.longValue() : 0;
    this.twiceCeilSigma = ceilSigma.shiftLeft(1);
    this.twiceCeilSigmaLong = longPath ? twiceCeilSigma.longValue() : 0;
    this.ceilKSigma = new long[longPath ? CEIL_TABLE : 0];
    for (int k = 0; k < ceilKSigma.length; k++) {
      BigInteger ceil = ceilDivide(p.multiply(BigInteger.valueOf(k)), q);
      ceilKSigma[k] = ceil.bitLength() < 63 ? ceil.longValue() : -1; // −1: compute per round
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
   * One draw as a long, a draw beyond the long range thrown as {@link BeyondLong}; on the long path
   * when σ allows it (see the class comment).
   */
  long sampleLong(RandomGenerator random) {
    return draw(random, longPath);
  }

  /**
   * One draw, its rounds in longs where they fit when {@code useLongs} and σ = p/q has p, q &lt; 2^61,
   * else in BigIntegers.
   */
  long draw(RandomGenerator random, boolean useLongs) {
    while (true) {
      long k = HalfExponentials.geometric(random);
      if (k >= 2 && !keep(random, k)) {
        continue;
      }
      // step 3's V below 2⌈σ⌉: J = ⌊V/2⌋ and the sign s from V's parity, independent and uniform
      boolean negative;
      long j = 0;
      BigInteger bigJ = null;
      if (useLongs && longPath) {
        long jAndSign = random.nextLong(twiceCeilSigmaLong);
        negative = (jAndSign & 1) != 0;
        j = jAndSign >>> 1;
      } else {
        BigInteger jAndSign = UniformIntegers.below(random, twiceCeilSigma);
        negative = jAndSign.testBit(0);
        bigJ = jAndSign.shiftRight(1);
      }
      long magnitude;
      try {
        magnitude = bigJ == null ? roundLong(random, k, j) : roundBig(random, k, bigJ);
      } catch (BeyondLong beyond) {
        throw new BeyondLong(negative ? beyond.value().negate() : beyond.value());
      }
      if (magnitude == REJECTED || (negative && magnitude == 0)) {
        continue;
      }
      return negative ? -magnitude : magnitude;
    }
  }

  /** Step 2: Bernoulli(e^{−k(k−1)/2}), k ≥ 2. */
  private static boolean keep(RandomGenerator random, long k) {
    if (k < 1L << 31) {
      return HalfExponentials.bernoulli(random, k * (k - 1));
    }
    for (long run = 0; run < k; run++) { // k(k−1) would overflow: (e^{−(k−1)/2})^k
      if (!HalfExponentials.bernoulli(random, k - 1)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Steps 3–4 for σ = p/q in longs: the magnitude i, or {@link #REJECTED}; where k·p or q·i would
   * reach 2^62 the round goes to {@link #roundBig}, which draws the same bits from there.
   */
  private long roundLong(RandomGenerator random, long k, long j) {
    long kp = k * pLong;
    if (Math.multiplyHigh(k, pLong) != 0 || kp >= LONG_LIMIT) {
      return roundBig(random, k, BigInteger.valueOf(j));
    }
    long ceil = k < CEIL_TABLE ? ceilKSigma[(int) k] : -1;
    if (ceil < 0) {
      ceil = kp / qLong + (kp % qLong == 0 ? 0 : 1);
    }
    long i = ceil + j; // ⌈kσ⌉ + j < kp + p + 1 < 2^63
    long qi = qLong * i;
    if (Math.multiplyHigh(qLong, i) != 0 || qi >= LONG_LIMIT) {
      return roundBig(random, k, BigInteger.valueOf(j));
    }
    long a = qi - kp;
    if (a >= pLong) {
      return REJECTED; // i ≥ (k + 1)σ
    }
    if (a == 0) {
      return i; // γ = 0
    }
    // x = a/p and x + 2k each within a relative 3·2^−53 and 4·2^−53, γ = x(x + 2k)/2 within 8·2^−53
    double x = (double) a / pLong;
    double gamma = x * (x + 2.0 * k) * 0.5;
    long started = HalfExponentials.start(random, gamma); // no lambda: nothing allocated per round
    boolean accepted = started >= 0
        ? started == 1
        : HalfExponentials.finish(random, started, squareGamma(BigInteger.valueOf(a), k));
    return accepted ? i : REJECTED;
  }

  /** Steps 3–4 in {@link BigInteger}s: the magnitude, {@link #REJECTED}, or {@link BeyondLong}. */
  private long roundBig(RandomGenerator random, long k, BigInteger j) {
    BigInteger bigK = BigInteger.valueOf(k);
    BigInteger i;
    boolean accepted;
    if (p != null) {
      BigInteger kp = bigK.multiply(p);
      i = ceilDivide(kp, q).add(j);
      BigInteger a = q.multiply(i).subtract(kp);
      if (a.compareTo(p) >= 0) {
        return REJECTED;
      }
      double x = approximately(a, p);
      accepted = a.signum() == 0
          || HalfExponentials.bernoulli(random, x * (x + 2.0 * k) * 0.5, () -> squareGamma(a, k));
    } else {
      BigInteger n = sigmaSquared.numerator();
      BigInteger d = sigmaSquared.denominator();
      BigInteger kPlusOne = bigK.add(BigInteger.ONE);
      i = ceilSqrt(n, d, bigK).add(j);
      BigInteger id = i.multiply(i).multiply(d);
      if (id.compareTo(n.multiply(kPlusOne).multiply(kPlusOne)) >= 0) {
        return REJECTED;
      }
      Rational gamma = new Rational(id.subtract(n.multiply(bigK).multiply(bigK)), n.shiftLeft(1));
      accepted = gamma.signum() == 0
          || HalfExponentials.bernoulli(
              random, approximately(gamma.numerator(), gamma.denominator()), () -> gamma);
    }
    return accepted ? BeyondLong.narrow(i) : REJECTED;
  }

  /** γ = x(2k + x)/2 = a(a + 2kp)/(2p²) exactly, for σ = p/q and a = qi − kp. */
  private Rational squareGamma(BigInteger a, long k) {
    BigInteger b = a.add(p.multiply(BigInteger.valueOf(k)).shiftLeft(1));
    return new Rational(a.multiply(b), p.multiply(p).shiftLeft(1));
  }

  /**
   * n/d for n ≥ 0, d &gt; 0 as a double within a relative 3·2^−53 (each cut to its top 62 bits, a
   * relative 2^−61, then converted and divided, rounding thrice); NaN where the quotient would leave
   * the normal range, which {@link HalfExponentials} takes as "no certificate".
   */
  private static double approximately(BigInteger n, BigInteger d) {
    int shiftN = Math.max(0, n.bitLength() - 62);
    int shiftD = Math.max(0, d.bitLength() - 62);
    int exponent = shiftN - shiftD;
    if (exponent > 900 || exponent < -900) {
      return Double.NaN;
    }
    double quotient = (double) n.shiftRight(shiftN).longValue() / d.shiftRight(shiftD).longValue();
    return Math.scalb(quotient, exponent);
  }

  /** ⌈x/y⌉ for x ≥ 0, y &gt; 0. */
  private static BigInteger ceilDivide(BigInteger x, BigInteger y) {
    BigInteger[] qr = x.divideAndRemainder(y);
    return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
  }

  /** ⌈k·√(n/d)⌉: the least integer i ≥ 0 with i²d ≥ k²n. */
  private static BigInteger ceilSqrt(BigInteger n, BigInteger d, BigInteger k) {
    BigInteger target = n.multiply(k).multiply(k);
    BigInteger i = target.divide(d).sqrt(); // ⌊√⌊k²n/d⌋⌋ = ⌊k·√(n/d)⌋
    return i.multiply(i).multiply(d).compareTo(target) >= 0 ? i : i.add(BigInteger.ONE);
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
