package dev.tradeoff.mechanisms.sampling;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Exact draws whose probabilities are powers of e^{−1/2}: Bernoulli(e^{−m/2}) and the geometric
 * law Pr[K ≥ v] = e^{−v/2} (steps 1 and 2 of Karney's discrete normal sampler; C. F. F. Karney,
 * "Sampling exactly from the normal distribution", ACM Trans. Math. Softw. 42(1), 2016).
 *
 * <p>Both compare a uniform U ∈ [0, 1), revealed 32 bits at a time, with the exact binary expansion
 * of e^{−m/2}. With W the first word of U and T = ⌊e^{−m/2}·2^32⌋: W &lt; T implies U &lt; (W + 1)·2^−32
 * ≤ T·2^−32 ≤ e^{−m/2}, and W &gt; T implies U ≥ W·2^−32 ≥ (T + 1)·2^−32 &gt; e^{−m/2}; only W = T
 * (probability 2^−32) needs U's next word, compared with the next 32 digits, and so on. Since
 * e^{−m/2} is irrational for m ≥ 1 (e^r is irrational for every rational r ≠ 0, Lambert), the
 * comparison ends with probability 1 and decides U &lt; e^{−m/2} exactly, so Pr[true] = e^{−m/2}
 * exactly. No floating-point number is involved: the first words for m ≤ 44 are a table, and word
 * w is ⌊e^{−m/2}·2^{32w}⌋ mod 2^32, computed in exact rational arithmetic ({@link #scaledFloor}).
 *
 * <p>Cost: 32 bits ({@code nextInt()}) per Bernoulli draw and per geometric draw, plus 32 more with
 * probability below 2^−26 (a tie with any of the at most 45 table words).
 */
final class HalfExponentials {

  /** Bits of U revealed per word. */
  private static final int WORD = 32;

  /** FIRST[m] = ⌊e^{−m/2}·2^32⌋, m = 1, …, 44 (e^{−22} &gt; 2^−32); zero from m = 45 on. */
  private static final long[] FIRST = new long[45];

  static {
    for (int m = 1; m < FIRST.length; m++) {
      FIRST[m] = scaledFloor(m, WORD).longValue();
    }
  }

  private HalfExponentials() {}

  /** True with probability exactly e^{−m/2}, m ≥ 0. */
  static boolean bernoulli(RandomGenerator random, long m) {
    if (m == 0) {
      return true;
    }
    long word = nextWord(random);
    long digits = m < FIRST.length ? FIRST[(int) m] : 0;
    if (word != digits) {
      return word < digits;
    }
    return new LazyUniform(random, word).below(m);
  }

  /**
   * K ≥ 0 with Pr[K ≥ v] = e^{−v/2}, i.e. Pr[K = k] = (1 − e^{−1/2})·e^{−k/2}: the largest v with
   * U &lt; e^{−v/2} for one uniform U (the events U &lt; e^{−v/2} are nested, so Pr[K ≥ v] = e^{−v/2}).
   */
  static long geometric(RandomGenerator random) {
    long word = nextWord(random);
    // v − 1 = #{u ≤ 4 : W < FIRST[u]}, counted without branches ((W − T) >>> 63 is 1 iff W < T for
    // 32-bit W and T): the table decreases, so these are u = 1, …, v − 1, and a random-length loop
    // would cost a mispredicted branch per draw. Past 4 (probability e^{−2}) the loop goes on.
    int v = 1 + (int) (((word - FIRST[1]) >>> 63) + ((word - FIRST[2]) >>> 63)
        + ((word - FIRST[3]) >>> 63) + ((word - FIRST[4]) >>> 63));
    while (v < FIRST.length && word < FIRST[v]) {
      v++; // U < e^{−v/2} is decided by the first word
    }
    if (v < FIRST.length && word != FIRST[v]) {
      return v - 1; // U > e^{−v/2}
    }
    LazyUniform u = new LazyUniform(random, word);
    long k = v - 1;
    while (u.below(k + 1)) {
      k++;
    }
    return k;
  }

  /** 32 uniform bits as a non-negative long. */
  private static long nextWord(RandomGenerator random) {
    return random.nextInt() & 0xffffffffL;
  }

  /**
   * ⌊e^{−m/2}·2^bits⌋ exactly, for m ≥ 1 and bits ≥ 0. With x = m/2, the partial sums S_N =
   * Σ_{i≤N} x^i/i! = A_N/(2^N·N!) (A_N = 2N·A_{N−1} + m^N) satisfy S_N ≤ e^x ≤ S_N + 2x^{N+1}/(N+1)!
   * once N + 2 ≥ m (each further term is at most half the one before), so ⌊2^bits/upper⌋ ≤
   * ⌊e^{−x}·2^bits⌋ ≤ ⌊2^bits/S_N⌋; N grows until the two floors agree, which happens because
   * e^{−x}·2^bits is irrational.
   */
  static BigInteger scaledFloor(long m, int bits) {
    BigInteger mm = BigInteger.valueOf(m);
    BigInteger a = BigInteger.ONE; // A_0
    BigInteger d = BigInteger.ONE; // D_N = 2^N·N!
    BigInteger power = BigInteger.ONE; // m^N
    BigInteger scale = BigInteger.ONE.shiftLeft(bits);
    for (long n = 1; ; n++) {
      power = power.multiply(mm);
      BigInteger twoN = BigInteger.valueOf(2 * n);
      a = a.multiply(twoN).add(power);
      d = d.multiply(twoN);
      if (n + 2 >= m && n % 8 == 0) {
        // tail·D_N ≤ 2·m^{N+1}/(2^{N+1}(N+1)!)·2^N·N! = m^{N+1}/(N+1), rounded up
        BigInteger[] tail = power.multiply(mm).divideAndRemainder(BigInteger.valueOf(n + 1));
        BigInteger tailUp = tail[0].add(tail[1].signum() == 0 ? BigInteger.ZERO : BigInteger.ONE);
        BigInteger upper = scale.multiply(d).divide(a);
        BigInteger lower = scale.multiply(d).divide(a.add(tailUp));
        if (upper.equals(lower)) {
          return upper;
        }
      }
    }
  }

  /** A uniform U ∈ [0, 1) whose 32-bit words are drawn when a comparison first needs them. */
  private static final class LazyUniform {
    private final RandomGenerator random;
    private long[] words = new long[4];
    private int drawn;

    LazyUniform(RandomGenerator random, long first) {
      this.random = random;
      this.words[0] = first;
      this.drawn = 1;
    }

    /** Whether U &lt; e^{−m/2}, m ≥ 1, decided word by word. */
    boolean below(long m) {
      for (int w = 0; ; w++) {
        if (w == drawn) {
          if (drawn == words.length) {
            words = Arrays.copyOf(words, 2 * drawn);
          }
          words[drawn++] = nextWord(random);
        }
        long digits = w == 0 && m < FIRST.length
            ? FIRST[(int) m]
            : scaledFloor(m, WORD * (w + 1)).longValue() & 0xffffffffL; // word w of the expansion
        if (words[w] != digits) {
          return words[w] < digits;
        }
      }
    }
  }
}
