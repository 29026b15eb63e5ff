package dev.tradeoff.mechanisms.sampling;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Exact draws whose probabilities are e^{−γ}: Bernoulli(e^{−m/2}) and the geometric law Pr[K ≥ v] =
 * e^{−v/2} (steps 1 and 2 of Karney's discrete normal sampler; C. F. F. Karney, "Sampling exactly
 * from the normal distribution", ACM Trans. Math. Softw. 42(1), 2016), and Bernoulli(e^{−γ}) for
 * any rational γ &gt; 0 (its step 4).
 *
 * <p>All compare a uniform U ∈ [0, 1), revealed 32 bits at a time, with the exact binary expansion
 * of e^{−γ}. With W the first word of U and T = ⌊e^{−γ}·2^32⌋: W &lt; T implies U &lt; (W + 1)·2^−32
 * ≤ T·2^−32 ≤ e^{−γ}, and W &gt; T implies U ≥ W·2^−32 ≥ (T + 1)·2^−32 &gt; e^{−γ}; only W = T
 * (probability 2^−32) needs U's next word, compared with the next 32 digits, and so on. Since
 * e^{−γ} is irrational for rational γ ≠ 0 (e^r is irrational for every rational r ≠ 0, Lambert),
 * the comparison ends with probability 1 and decides U &lt; e^{−γ} exactly, so Pr[true] = e^{−γ}
 * exactly. Word w of the expansion is ⌊e^{−γ}·2^{32w}⌋ mod 2^32, computed in exact rational
 * arithmetic ({@link #scaledFloor(Rational, int)}); the first words for γ = m/2, m ≤ 44, are a
 * table.
 *
 * <p>For a general γ the first word T comes from a double when the double certifies it: given
 * g with |g − γ| ≤ γ·2^−49 and g ≤ 32, the interval e^{−g}·(1 ± (g + 1)·2^−46) holds e^{−γ} (the
 * error of g moves e^{−g} from e^{−γ} by a relative γ·2^−49·(1 + 2^−40) at most, {@link Math#exp}
 * errs by 1 ulp, a relative 2^−52, and forming each end rounds once more by 2^−52; the slack is at
 * least six times their sum, and e^{−g} ≥ e^{−32} is far from underflow), and when both ends of
 * the interval, scaled by 2^32, have the same floor, that floor is T. Otherwise (probability below
 * 2^−13) T is computed exactly. The double only ever names an integer that is then exact, so the
 * draw is the same whichever way T was found, and its law is exactly e^{−γ}: no probability is
 * ever rounded.
 *
 * <p>Cost: 32 bits ({@code nextInt()}) per draw, plus 32 more with probability below 2^−26 (a tie
 * with any of the at most 45 table words, or with T).
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
   * True with probability exactly e^{−γ}, for γ = {@code exact.get()} &gt; 0 and a double {@code
   * approx} with |approx − γ| ≤ γ·2^−49 (see the class comment); {@code exact} is asked only when
   * the double does not decide: {@link #start} and then {@link #finish}.
   */
  static boolean bernoulli(RandomGenerator random, double approx, Supplier<Rational> exact) {
    long started = start(random, approx);
    return started >= 0 ? started == 1 : finish(random, started, exact.get());
  }

  /**
   * The first step of {@link #bernoulli(RandomGenerator, double, Supplier)}, without the exact γ:
   * draws U's first word W and returns 1 (U &lt; e^{−γ}) or 0 (U &gt; e^{−γ}) when the first word
   * certified by {@code approx} decides, else −1 − W for {@link #finish}. (Callers on a hot path
   * use it to build the exact γ only in the rare undecided case.)
   */
  static long start(RandomGenerator random, double approx) {
    long word = nextWord(random);
    long digits = firstWord(approx);
    if (digits >= 0 && word != digits) {
      return word < digits ? 1 : 0;
    }
    return -1 - word;
  }

  /** Decides a draw that {@link #start} left undecided ({@code started} &lt; 0), with the exact γ. */
  static boolean finish(RandomGenerator random, long started, Rational gamma) {
    long word = -1 - started;
    long digits = scaledFloor(gamma, WORD).longValue();
    if (word != digits) {
      return word < digits;
    }
    return new LazyUniform(random, word).below(gamma, digits);
  }

  /**
   * ⌊e^{−γ}·2^32⌋ from a double g with |g − γ| ≤ γ·2^−49 when g certifies it, else −1. For g &gt;
   * 32, γ &gt; 31.9 &gt; 32·ln 2, so e^{−γ} &lt; 2^−32 and the word is 0; g below 2^−900, zero or NaN
   * certifies nothing.
   */
  static long firstWord(double approx) {
    if (approx > 32) {
      return 0;
    }
    if (!(approx >= 0x1.0p-900)) {
      return -1;
    }
    double e = Math.exp(-approx);
    double slack = (approx + 1) * 0x1.0p-46;
    long low = (long) Math.floor(Math.scalb(e * (1 - slack), WORD));
    long high = (long) Math.floor(Math.scalb(e * (1 + slack), WORD));
    return low == high ? low : -1;
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

  /** ⌊e^{−m/2}·2^bits⌋ exactly, for m ≥ 1 and bits ≥ 0. */
  static BigInteger scaledFloor(long m, int bits) {
    return scaledFloor(Rational.of(m, 2), bits);
  }

  /**
   * ⌊e^{−x}·2^bits⌋ exactly, for a rational x = n/d &gt; 0 and bits ≥ 0. The partial sums S_N =
   * Σ_{i≤N} x^i/i! = A_N/(d^N·N!) (A_0 = 1, A_N = dN·A_{N−1} + n^N) satisfy S_N ≤ e^x ≤ S_N +
   * 2x^{N+1}/(N+1)! once N + 2 ≥ 2x (each further term is at most half the one before), and the
   * tail times d^N·N! is at most 2n^{N+1}/(d(N+1)); so ⌊2^bits/upper⌋ ≤ ⌊e^{−x}·2^bits⌋ ≤
   * ⌊2^bits/S_N⌋, and N grows until the two floors agree, which happens because e^{−x}·2^bits is
   * irrational.
   */
  static BigInteger scaledFloor(Rational x, int bits) {
    BigInteger n = x.numerator();
    BigInteger d = x.denominator();
    BigInteger a = BigInteger.ONE; // A_0
    BigInteger denominator = BigInteger.ONE; // D_N = d^N·N!
    BigInteger power = BigInteger.ONE; // n^N
    BigInteger scale = BigInteger.ONE.shiftLeft(bits);
    BigInteger twiceN = n.shiftLeft(1);
    for (long step = 1; ; step++) {
      power = power.multiply(n);
      BigInteger dStep = d.multiply(BigInteger.valueOf(step));
      a = a.multiply(dStep).add(power);
      denominator = denominator.multiply(dStep);
      if (step % 8 == 0 && d.multiply(BigInteger.valueOf(step + 2)).compareTo(twiceN) >= 0) {
        // tail·D_N ≤ 2n^{N+1}/(d(N+1)), rounded up
        BigInteger[] tail =
            power.multiply(twiceN).divideAndRemainder(d.multiply(BigInteger.valueOf(step + 1)));
        BigInteger tailUp = tail[0].add(tail[1].signum() == 0 ? BigInteger.ZERO : BigInteger.ONE);
        BigInteger upper = scale.multiply(denominator).divide(a);
        BigInteger lower = scale.multiply(denominator).divide(a.add(tailUp));
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
      return below(Rational.of(m, 2), m < FIRST.length ? FIRST[(int) m] : 0);
    }

    /** Whether U &lt; e^{−γ}, given the first word of its expansion. */
    boolean below(Rational gamma, long firstDigits) {
      for (int w = 0; ; w++) {
        if (w == drawn) {
          if (drawn == words.length) {
            words = Arrays.copyOf(words, 2 * drawn);
          }
          words[drawn++] = nextWord(random);
        }
        long digits = w == 0
            ? firstDigits
            : scaledFloor(gamma, WORD * (w + 1)).longValue() & 0xffffffffL; // word w of the expansion
        if (words[w] != digits) {
          return words[w] < digits;
        }
      }
    }
  }
}
