package dev.tradeoff.mechanisms.random;

import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Tradeoff's production randomness: an AES-256 CTR_DRBG (NIST SP 800-90A Rev. 1, Section 10.2.1)
 * seeded and reseeded from a Hash_DRBG (Section 10.1.1) that the operating system seeds, read in
 * 64 KiB requests and consumed bit-exactly.
 *
 * <p><b>Source.</b> The seed source is the JDK's {@code "DRBG"} {@link SecureRandom} instantiated
 * at 256-bit security strength with reseeding enabled ({@code DrbgParameters.instantiation(256,
 * RESEED_ONLY, …)}); with the default {@code securerandom.drbg.config} that is Hash_DRBG with
 * SHA-256, seeded from the operating system's entropy source and reseeded by the JDK as SP 800-90A
 * Table 2 bounds. It supplies the 384-bit seed material of a {@link CtrDrbg} (AES-256, no
 * derivation function), which produces the bits: 64 KiB per generate request (the standard's
 * 2^19-bit maximum), its key replaced after every request, and reseeded from the Hash_DRBG every
 * {@link #RESEED_INTERVAL} requests (4 GiB of output; Table 3 allows 2^48 requests). The Hash_DRBG
 * alone delivers about 60 MB/s here; AES-CTR with the processor's AES instructions about 2 GB/s,
 * which is what lets the exact samplers run at millions of draws a second. Every {@code SecureBits}
 * has its own two DRBG instances, so two generators never share a state.
 *
 * <p><b>Consumption.</b> Each call takes only the bits its result needs: {@link #nextBoolean} one
 * bit, {@link #nextLong(long)} log2 bound bits for a power of two and otherwise candidates of
 * ⌈log2 bound⌉ + 8 bits (at most 64) mapped by multiplication, rejected with probability below
 * 2^−8 (exactly uniform; see there), {@link #nextLong()} 64 and {@link #nextDouble()} 53. The bits
 * come from a {@link BitStream}: the DRBG's output bytes in order, none reused and none skipped.
 *
 * <p><b>Threads.</b> Thread-safe, like the {@link SecureRandom} it replaces: each thread reads its own
 * buffer, refilled with disjoint requests to the one CTR_DRBG (under a lock). The thread that
 * created the generator reaches its buffer through a field rather than the {@link ThreadLocal}.
 */
final class SecureBits implements RandomGenerator {

  /** Bytes drawn from the CTR_DRBG per refill: its largest request, 2^19 bits. */
  static final int BLOCK_BYTES = CtrDrbg.MAX_REQUEST_BYTES;

  /** CTR_DRBG requests between reseeds from the Hash_DRBG. */
  static final long RESEED_INTERVAL = 1 << 16;

  /** Extra candidate bits beyond ⌈log2 bound⌉ in {@link #nextLong(long)}. */
  static final int EXTRA_BITS = 8;

  private final ThreadLocal<BitStream> streams;
  private final Thread owner;
  private final BitStream ownerStream;

  /** A generator reading the given byte source (for tests: any source, in blocks of the size). */
  SecureBits(Consumer<byte[]> source, int blockBytes) {
    if (blockBytes <= 0 || blockBytes % 8 != 0) {
      throw new IllegalArgumentException(
          "blockBytes must be a positive multiple of 8, got " + blockBytes);
    }
    this.streams = ThreadLocal.withInitial(() -> new BitStream(source, blockBytes));
    this.owner = Thread.currentThread();
    this.ownerStream = streams.get();
  }

  /**
   * A generator on a fresh AES-256 CTR_DRBG, seeded and reseeded from a fresh 256-bit Hash_DRBG
   * that the operating system seeds.
   */
  static SecureBits fromDrbg() {
    CtrDrbg ctrDrbg = new CtrDrbg(drbg()::nextBytes, RESEED_INTERVAL);
    return new SecureBits(
        block -> {
          synchronized (ctrDrbg) {
            ctrDrbg.generate(block);
          }
        },
        BLOCK_BYTES);
  }

  /** A fresh instance of the JDK's SP 800-90A DRBG at 256-bit strength, reseeding enabled. */
  static SecureRandom drbg() {
    try {
      return SecureRandom.getInstance(
          "DRBG",
          DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY,
              "dev.tradeoff".getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK's SP 800-90A DRBG is not available", e);
    }
  }

  /** The next {@code bits} bits, 1 ≤ bits ≤ 64, as an unsigned number. */
  long nextBits(int bits) {
    return stream().next(bits);
  }

  /** Bits this thread has drawn from this generator so far. */
  long bitsDrawn() {
    return stream().bitsDrawn();
  }

  /** This thread's stream. */
  private BitStream stream() {
    return Thread.currentThread() == owner ? ownerStream : streams.get();
  }

  @Override
  public long nextLong() {
    return nextBits(64);
  }

  @Override
  public int nextInt() {
    return (int) nextBits(32);
  }

  @Override
  public boolean nextBoolean() {
    return nextBits(1) != 0;
  }

  @Override
  public float nextFloat() {
    return nextBits(24) * 0x1.0p-24f;
  }

  @Override
  public double nextDouble() {
    return nextBits(53) * 0x1.0p-53;
  }

  /**
   * Uniform on {0, …, bound − 1}, exactly. A power of two 2^j takes j bits. Any other bound b takes
   * candidates c of w = min(64, ⌈log2 b⌉ + {@link #EXTRA_BITS}) bits and maps them by multiplication
   * (D. Lemire, "Fast random integer generation in an interval", ACM Trans. Model. Comput. Simul.
   * 29(1), 2019, Algorithm 5): r = ⌊c·b/2^w⌋, rejected when c·b mod 2^w &lt; 2^w mod b.
   *
   * <p><b>Why it is exact.</b> Write t = 2^w mod b. For each r the candidates with ⌊c·b/2^w⌋ = r
   * are those with c·b in [r·2^w, (r + 1)·2^w); the low parts c·b − r·2^w of those c are the
   * numbers in [0, 2^w) congruent to −r·2^w mod b, and of any b consecutive integers exactly one
   * has each residue. The interval [t, 2^w) holds 2^w − t = b·⌊2^w/b⌋ integers, so exactly
   * ⌊2^w/b⌋ of them are low parts of accepted candidates for every r: the accepted r is uniform.
   *
   * <p><b>Cost.</b> A candidate is rejected with probability t/2^w &lt; b/2^w, at most 2^−8 for b ≤
   * 2^56, so the expected bits are w·2^w/(2^w − t): more than the ⌈log2 b⌉·2^⌈log2 b⌉/b of plain
   * rejection for small b, fewer for large b. The point is the branch: plain rejection at b = 5 or
   * 10 rejected 3 candidates in 8, each a branch the processor could not predict, while here the
   * rejection branch is almost never taken. Only a low part below b (probability below 2^−8 for b ≤
   * 2^56) computes t, the one division.
   */
  @Override
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, got " + bound);
    }
    BitStream stream = stream();
    if ((bound & (bound - 1)) == 0) {
      int bits = Long.numberOfTrailingZeros(bound);
      return bits == 0 ? 0 : stream.next(bits);
    }
    int bits = candidateBits(bound);
    while (true) {
      long value = fromCandidate(stream.next(bits), bound, bits);
      if (value >= 0) {
        return value;
      }
    }
  }

  /**
   * ⌊c·b/2^w⌋ for the candidate c of w = {@code bits} bits, or −1 when c·b mod 2^w &lt; 2^w mod b
   * (rejected); see {@link #nextLong(long)}.
   */
  static long fromCandidate(long candidate, long bound, int bits) {
    int shift = 64 - bits;
    long x = candidate << shift; // c·2^(64−w): the product's high word is ⌊c·b/2^w⌋
    long low = x * bound; // (c·b mod 2^w)·2^(64−w)
    if (Long.compareUnsigned(low, bound << shift) >= 0
        || Long.compareUnsigned(low >>> shift, powerModulo(bits, bound)) >= 0) {
      return Math.multiplyHigh(x, bound) + ((x >> 63) & bound); // unsigned high word
    }
    return -1;
  }

  /** The candidate width w of {@link #nextLong(long)} for a bound b ≥ 3 not a power of two. */
  static int candidateBits(long bound) {
    return Math.min(64, 64 - Long.numberOfLeadingZeros(bound) + EXTRA_BITS);
  }

  /** 2^bits mod bound, for 1 ≤ bits ≤ 64 and bound ≥ 1. */
  static long powerModulo(int bits, long bound) {
    // 2^63 and 2^64 − bound (≡ 2^64) as unsigned longs
    return Long.remainderUnsigned(bits == 64 ? -bound : 1L << bits, bound);
  }

  @Override
  public long nextLong(long origin, long bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "origin must be below bound, got origin " + origin + " and bound " + bound);
    }
    long width = bound - origin;
    if (width > 0) {
      return origin + nextLong(width);
    }
    while (true) { // the range exceeds Long.MAX_VALUE: reject whole 64-bit words
      long candidate = nextLong();
      if (candidate >= origin && candidate < bound) {
        return candidate;
      }
    }
  }

  @Override
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, got " + bound);
    }
    return (int) nextLong(bound);
  }

  @Override
  public int nextInt(int origin, int bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "origin must be below bound, got origin " + origin + " and bound " + bound);
    }
    return (int) nextLong(origin, bound);
  }

  @Override
  public String toString() {
    return "SecureBits(SP 800-90A CTR_DRBG AES-256 seeded by Hash_DRBG SHA-256, 256-bit strength)";
  }
}
